-- An endpoint whose trust verdicts change (after a probe sweep, src/trust/refresh.ts) is noted in
-- probe_changes like a probe result, so API processes bring it into their in-memory catalogue in
-- place (src/search/freshness/in-place-refresh.ts). A service's verdicts are columns of its row:
-- services_row_changes already notes them as a change of the catalogue.
CREATE TRIGGER "endpoints_trust_changes"
  AFTER UPDATE OF "health", "grade", "score", "trust_warnings" ON "endpoints"
  FOR EACH ROW
  WHEN ((OLD."health", OLD."grade", OLD."score", OLD."trust_warnings")
    IS DISTINCT FROM (NEW."health", NEW."grade", NEW."score", NEW."trust_warnings"))
  EXECUTE FUNCTION "note_probe_change"();
