-- Registrations: what sellers submit at POST /v1/registrations (src/registrations), and the
-- source kind their origins' resources are stored under.
ALTER TYPE "source_kind" ADD VALUE 'registered';

CREATE TYPE "registration_kind" AS ENUM ('url', 'origin');

CREATE TYPE "registration_state" AS ENUM ('pending', 'listed', 'refused');

CREATE TABLE "registrations" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "kind" "registration_kind" NOT NULL,
    "origin" TEXT NOT NULL,
    "url" TEXT,
    "method" TEXT,
    "state" "registration_state" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "verdict" JSONB,
    "listed" JSONB NOT NULL DEFAULT '[]',
    "source_id" UUID,
    "api_key_id" UUID,
    "organisation_id" UUID,
    "environment" "environment",
    "submitter_address" TEXT,
    "checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "registrations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "registrations_key_key" ON "registrations"("key");
CREATE INDEX "registrations_origin_idx" ON "registrations"("origin");
CREATE INDEX "registrations_state_checked_at_idx" ON "registrations"("state", "checked_at");

ALTER TABLE "registrations" ADD CONSTRAINT "registrations_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE SET NULL ON UPDATE CASCADE;
