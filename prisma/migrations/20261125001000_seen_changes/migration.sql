-- An unchanged crawl stops being a catalogue change. Every crawl marks the services it saw
-- (last_seen_at), and its delisting and merge steps run UPDATE statements that usually change no
-- row; statement-level triggers counted all of that as a change, so every crawl, even of an
-- unchanged directory, made every API process reload its whole in-memory catalogue.
-- Now an UPDATE of services is a catalogue change only for rows whose columns other than
-- last_seen_at and updated_at changed (row-level, compared as jsonb so a new column counts without
-- touching this trigger), and a statement that sets last_seen_at leaves a seen_changes row: API
-- processes then re-read the entries' last_seen_at in place (src/search/in-place-refresh.ts).
CREATE TABLE "seen_changes" (
    "transaction_id" BIGINT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "seen_changes_pkey" PRIMARY KEY ("transaction_id")
);

CREATE INDEX "seen_changes_changed_at_idx" ON "seen_changes"("changed_at");

CREATE FUNCTION "note_seen_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "seen_changes" ("transaction_id")
  VALUES (pg_current_xact_id()::text::bigint)
  ON CONFLICT ("transaction_id") DO NOTHING;
  RETURN NULL;
END
$$;

DROP TRIGGER "services_changes" ON "services";
CREATE TRIGGER "services_changes" AFTER INSERT OR DELETE OR TRUNCATE ON "services"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "services_row_changes" AFTER UPDATE ON "services" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - '{last_seen_at,updated_at}'::text[]) IS DISTINCT FROM (to_jsonb(NEW) - '{last_seen_at,updated_at}'::text[]))
  EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "services_seen" AFTER UPDATE OF "last_seen_at" ON "services"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_seen_change"();
