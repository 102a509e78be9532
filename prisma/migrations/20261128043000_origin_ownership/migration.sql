-- Ownership of origins (src/ownership): challenges, verified owners and their changes; a delisting
-- reason for services whose owner asked; and webhook endpoints limited to one origin.
ALTER TABLE "services" ADD COLUMN "delist_reason" TEXT;

ALTER TABLE "webhook_endpoints" ADD COLUMN "origin" TEXT;

CREATE TABLE "ownership_challenges" (
    "id" UUID NOT NULL,
    "registration_id" UUID NOT NULL,
    "origin" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "token_hash" BYTEA NOT NULL,
    "messages" JSONB NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ownership_challenges_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "origin_owners" (
    "origin" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "address" TEXT,
    "chain_id" TEXT,
    "credential_hash" BYTEA NOT NULL,
    "verified_at" TIMESTAMPTZ(3) NOT NULL,
    "reported" JSONB,
    "reported_at" TIMESTAMPTZ(3),
    "deregistered_at" TIMESTAMPTZ(3),
    "organisation_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "origin_owners_pkey" PRIMARY KEY ("origin")
);

CREATE TABLE "origin_owner_changes" (
    "id" BIGSERIAL NOT NULL,
    "origin" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "address" TEXT,
    "chain_id" TEXT,
    "previous_method" TEXT,
    "previous_address" TEXT,
    "challenge_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "origin_owner_changes_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ownership_challenges_nonce_key" ON "ownership_challenges"("nonce");

CREATE UNIQUE INDEX "ownership_challenges_token_hash_key" ON "ownership_challenges"("token_hash");

CREATE INDEX "ownership_challenges_registration_id_created_at_idx" ON "ownership_challenges"("registration_id", "created_at");

CREATE UNIQUE INDEX "origin_owners_credential_hash_key" ON "origin_owners"("credential_hash");

CREATE UNIQUE INDEX "origin_owners_organisation_id_key" ON "origin_owners"("organisation_id");

CREATE INDEX "origin_owner_changes_origin_created_at_idx" ON "origin_owner_changes"("origin", "created_at");

ALTER TABLE "ownership_challenges" ADD CONSTRAINT "ownership_challenges_registration_id_fkey" FOREIGN KEY ("registration_id") REFERENCES "registrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "origin_owners" ADD CONSTRAINT "origin_owners_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The in-memory catalogue shows owner_verified and what owners report: a change of owners is a
-- change of what the API lists (catalogue_changes, see that migration).
CREATE TRIGGER "origin_owners_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "origin_owners"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_catalogue_change"();

-- The origin of an endpoint URL as the URL parser writes it (lower-case scheme and host): how an
-- endpoint is matched to an owned origin. Immutable, so it can be indexed.
CREATE FUNCTION "url_origin"(url text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(substring(url from '^(https?://[^/?#]+)'))
$$;

-- Whether some row of the catalogue entry of service row `service` has an endpoint at `origin`:
-- which events an origin owner's webhook endpoint receives (src/events/emit.ts).
CREATE FUNCTION "service_at_origin"(service uuid, origin text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1
    FROM services s
    JOIN services m ON coalesce(m.canonical_id, m.id) = coalesce(s.canonical_id, s.id)
    JOIN endpoints e ON e.service_id = m.id
    WHERE s.id = service AND url_origin(e.url) = origin)
$$;

-- An origin's endpoints, found by index (an owner's services, the pay_tos a challenge names).
CREATE INDEX "endpoints_origin_idx" ON "endpoints" (url_origin("url"));
