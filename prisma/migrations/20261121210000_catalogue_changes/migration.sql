-- Change tracking for what the API lists, so API processes know when their in-memory index of the
-- catalogue (src/search/) is stale: every transaction that changes services, endpoints, tags,
-- payment options, sources or search documents leaves one row here, keyed by its transaction id.
--
-- Why rows per transaction rather than one counter: a counter row would be a lock every writer
-- takes (a crawl's batches, probe workers, the merge step) and, taken mid-transaction, a source of
-- deadlocks. Rows of distinct keys never contend. A reader that loaded the catalogue in a snapshot
-- asks whether any change row is not visible in that snapshot (pg_visible_in_snapshot): exactly the
-- commits its index lacks, whatever order transactions commit in.
CREATE TABLE "catalogue_changes" (
    "transaction_id" BIGINT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalogue_changes_pkey" PRIMARY KEY ("transaction_id")
);

CREATE INDEX "catalogue_changes_changed_at_idx" ON "catalogue_changes"("changed_at");

-- Functions and triggers are invisible to `prisma migrate diff`, so they live only here.
-- Statement-level: one cheap insert per statement (the second of a transaction is a no-op), not per row.
CREATE FUNCTION "note_catalogue_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "catalogue_changes" ("transaction_id")
  VALUES (pg_current_xact_id()::text::bigint)
  ON CONFLICT ("transaction_id") DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER "services_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "services"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "endpoints_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "endpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "service_tags_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "service_tags"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "payment_options_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "payment_options"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "sources_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sources"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "service_search_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "service_search"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "endpoint_search_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "endpoint_search"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "search_terms_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "search_terms"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
