-- CreateEnum
CREATE TYPE "payment_option_origin" AS ENUM ('listing', 'probe');

-- AlterTable
ALTER TABLE "endpoints" ADD COLUMN     "last_probe_status" INTEGER,
ADD COLUMN     "last_probed_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_verified_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "services" ADD COLUMN     "canonical_id" UUID;

-- CreateTable
CREATE TABLE "payment_options" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "origin" "payment_option_origin" NOT NULL,
    "source_id" UUID,
    "position" INTEGER NOT NULL,
    "scheme" TEXT,
    "network" TEXT,
    "network_name" TEXT,
    "asset" TEXT,
    "asset_symbol" TEXT,
    "amount_atomic" DECIMAL(78,0),
    "price_usdc" DECIMAL(38,6),
    "pay_to" TEXT,
    "max_timeout_seconds" INTEGER,
    "warnings" TEXT[],
    "observed_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_options_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoint_probes" (
    "id" BIGSERIAL NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "probed_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "status_code" INTEGER,
    "latency_ms" DOUBLE PRECISION,
    "challenge_valid" BOOLEAN NOT NULL DEFAULT false,
    "x402_version" INTEGER,
    "error" TEXT,
    "options" JSONB,
    "drift" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_probes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_options_endpoint_id_origin_idx" ON "payment_options"("endpoint_id", "origin");

-- CreateIndex
CREATE INDEX "payment_options_network_idx" ON "payment_options"("network");

-- CreateIndex
CREATE INDEX "payment_options_pay_to_idx" ON "payment_options"("pay_to");

-- CreateIndex
CREATE INDEX "payment_options_price_usdc_idx" ON "payment_options"("price_usdc");

-- CreateIndex
CREATE INDEX "endpoint_probes_endpoint_id_probed_at_idx" ON "endpoint_probes"("endpoint_id", "probed_at" DESC);

-- CreateIndex
CREATE INDEX "endpoint_probes_probed_at_idx" ON "endpoint_probes"("probed_at");

-- CreateIndex
CREATE INDEX "endpoints_last_verified_at_idx" ON "endpoints"("last_verified_at");

-- CreateIndex
CREATE INDEX "services_canonical_id_idx" ON "services"("canonical_id");

-- AddForeignKey
ALTER TABLE "payment_options" ADD CONSTRAINT "payment_options_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_probes" ADD CONSTRAINT "endpoint_probes_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
