-- API processes keep the keys they verified in memory (src/accounts/key-cache.ts). So that a
-- revoked key is still refused on the very next request on every replica, each change that can
-- alter a verified key (revocation, scopes, owner, plan, the plan's limits) bumps a counter and
-- notifies its new value on "api_keys_changed"; every process clears its cache and acknowledges
-- the value in "api_key_readers"; the revoker waits for every live process's acknowledgement.
--
-- One counter row (id 1; a CHECK constraint would crash the WASM schema engine's diff), not a sequence: its row lock orders the changes by commit, so a process that
-- acknowledged value n has seen every change up to n. Key changes are rare (revocations, plan
-- changes), so the lock costs nothing; last-used bookkeeping does not fire the trigger.
CREATE TABLE "api_key_changes" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "value" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "api_key_changes_pkey" PRIMARY KEY ("id")
);
INSERT INTO "api_key_changes" ("id", "value") VALUES (1, 0);

-- One row per running API process: the last change it acknowledged and when it last renewed its
-- lease. A process uses its cache only while its lease is fresh, so a revoker that waits out the
-- lease of a process that stopped answering can never leave a stale key in use.
CREATE TABLE "api_key_readers" (
    "id" UUID NOT NULL,
    "seen_change" BIGINT NOT NULL DEFAULT 0,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_key_readers_pkey" PRIMARY KEY ("id")
);

-- Functions and triggers are invisible to `prisma migrate diff`, so they live only here.
CREATE FUNCTION "note_api_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_value BIGINT;
BEGIN
  UPDATE "api_key_changes" SET "value" = "value" + 1 WHERE "id" = 1 RETURNING "value" INTO next_value;
  PERFORM pg_notify('api_keys_changed', next_value::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "api_keys_key_changes" AFTER UPDATE OF "revoked_at", "scopes", "organisation_id", "environment", "key_hash" OR DELETE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_api_key_change"();
CREATE TRIGGER "organisations_key_changes" AFTER UPDATE OF "plan_id" OR DELETE ON "organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_api_key_change"();
CREATE TRIGGER "plans_key_changes" AFTER UPDATE OR DELETE ON "plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_api_key_change"();
