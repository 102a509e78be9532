-- Every webhook secret rotated out in the last 24 hours keeps signing: the secrets rotated out are
-- a list (newest first) instead of one column pair. A previous secret still valid moves into it.
-- Secrets stored in plain text are sealed by the application at its start
-- (src/webhooks/secret-sealing.ts), these among them.
-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "previous_secrets" JSONB NOT NULL DEFAULT '[]';

UPDATE "webhook_endpoints"
SET "previous_secrets" = jsonb_build_array(
  jsonb_build_object('secret', "previous_secret", 'expires_at', "previous_secret_expires_at")
)
WHERE "previous_secret" IS NOT NULL AND "previous_secret_expires_at" > now();

ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret",
DROP COLUMN "previous_secret_expires_at";
