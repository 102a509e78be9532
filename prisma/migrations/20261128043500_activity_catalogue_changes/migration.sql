-- The observed figures (src/activity) are filters and sorts of the in-memory catalogue
-- (src/search): a change of them is a change of the catalogue, noted in catalogue_changes like a
-- service's own columns, so API processes load the catalogue again. A refresh rewrites every
-- watched entry's row each round; only rows whose searched figures differ are noted (row-level
-- triggers with WHEN), so a round that changes nothing leaves the catalogue as it is.
CREATE TRIGGER "service_activity_rows_changes" AFTER INSERT OR DELETE ON "service_activity"
  FOR EACH ROW EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "service_activity_figures_changes" AFTER UPDATE ON "service_activity"
  FOR EACH ROW
  WHEN ((OLD."observed_volume_usdc_30d", OLD."adjusted_volume_usdc_30d", OLD."unique_payers_30d")
    IS DISTINCT FROM (NEW."observed_volume_usdc_30d", NEW."adjusted_volume_usdc_30d", NEW."unique_payers_30d"))
  EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "service_activity_truncate_changes" AFTER TRUNCATE ON "service_activity"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();

CREATE TRIGGER "endpoint_activity_rows_changes" AFTER INSERT OR DELETE ON "endpoint_activity"
  FOR EACH ROW EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "endpoint_activity_figures_changes" AFTER UPDATE ON "endpoint_activity"
  FOR EACH ROW
  WHEN ((OLD."observed" #> '{raw,30d}', OLD."observed" #> '{adjusted,30d,volume_usdc}')
    IS DISTINCT FROM (NEW."observed" #> '{raw,30d}', NEW."observed" #> '{adjusted,30d,volume_usdc}'))
  EXECUTE FUNCTION "note_catalogue_change"();
CREATE TRIGGER "endpoint_activity_truncate_changes" AFTER TRUNCATE ON "endpoint_activity"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();
