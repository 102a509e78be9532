-- Probe results stop being catalogue changes. A probe rewrites an endpoint's probe columns and its
-- probe-origin payment options; until now each such write left a catalogue_changes row, so during
-- a sweep every API process reloaded its whole in-memory catalogue about once a minute. Now a
-- probe write leaves one row per endpoint here instead, and API processes refresh just those
-- endpoints (and their entries' facets) in place (src/search/current-catalogue.ts). Writes that
-- change what the catalogue lists (a crawl's rows, listing-origin options) still note a
-- catalogue change.
CREATE TABLE "probe_changes" (
    "transaction_id" BIGINT NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "probe_changes_pkey" PRIMARY KEY ("transaction_id","endpoint_id")
);

CREATE INDEX "probe_changes_changed_at_idx" ON "probe_changes"("changed_at");

-- Row-level: a probe updates one endpoint, and the reader needs to know which.
CREATE FUNCTION "note_probe_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "probe_changes" ("transaction_id", "endpoint_id")
  VALUES (pg_current_xact_id()::text::bigint, NEW."id")
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- Endpoints: the listing columns (what a crawl writes) are catalogue changes; the probe columns
-- are probe changes. UPDATE OF fires when the statement sets one of the columns.
DROP TRIGGER "endpoints_changes" ON "endpoints";
CREATE TRIGGER "endpoints_changes" AFTER INSERT OR DELETE OR TRUNCATE ON "endpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "endpoints_listing_changes"
  AFTER UPDATE OF "id", "service_id", "position", "method", "url", "description", "call_description", "self_reported"
  ON "endpoints" FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "endpoints_probe_changes"
  AFTER UPDATE OF "last_probed_at", "last_probe_status", "last_verified_at", "probe_call_description"
  ON "endpoints" FOR EACH ROW EXECUTE FUNCTION "note_probe_change"();

-- Payment options: which kind of change depends on the rows' origin, so the statement's rows are
-- read from its transition table (one trigger per event: a transition table names one of them).
CREATE FUNCTION "note_payment_option_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "changed_options" WHERE "origin" <> 'probe') THEN
    INSERT INTO "catalogue_changes" ("transaction_id")
    VALUES (pg_current_xact_id()::text::bigint)
    ON CONFLICT ("transaction_id") DO NOTHING;
  END IF;
  INSERT INTO "probe_changes" ("transaction_id", "endpoint_id")
  SELECT DISTINCT pg_current_xact_id()::text::bigint, "endpoint_id" FROM "changed_options" WHERE "origin" = 'probe'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

DROP TRIGGER "payment_options_changes" ON "payment_options";
CREATE TRIGGER "payment_options_inserted" AFTER INSERT ON "payment_options"
  REFERENCING NEW TABLE AS "changed_options"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_payment_option_change"();
CREATE TRIGGER "payment_options_updated" AFTER UPDATE ON "payment_options"
  REFERENCING NEW TABLE AS "changed_options"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_payment_option_change"();
CREATE TRIGGER "payment_options_deleted" AFTER DELETE ON "payment_options"
  REFERENCING OLD TABLE AS "changed_options"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_payment_option_change"();
CREATE TRIGGER "payment_options_truncated" AFTER TRUNCATE ON "payment_options"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
