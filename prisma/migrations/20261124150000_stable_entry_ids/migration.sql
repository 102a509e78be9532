-- The id the API shows for a catalogue entry, kept when another row becomes the entry's primary
-- or a source relists the service under a new row (see src/catalogue/merge.ts).
ALTER TABLE "services" ADD COLUMN "entry_id" UUID;

CREATE INDEX "services_entry_id_idx" ON "services"("entry_id");

-- Entries keep the id they were shown under until now: their primary row's.
UPDATE "services" SET "entry_id" = "canonical_id" WHERE "canonical_id" IS NOT NULL;
