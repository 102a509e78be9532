-- The catalogue entry of a service row (see src/catalogue/catalogue-entries.ts): members of an
-- entry are looked up by this expression. Expression indexes are invisible to `prisma migrate
-- diff`, so it lives only here.
CREATE INDEX "services_entry_idx" ON "services" ((coalesce("canonical_id", "id")));
