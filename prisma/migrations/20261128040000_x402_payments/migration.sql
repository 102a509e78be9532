-- The catalogue's own x402 sales: one row per payment authorisation (network, payer, nonce).
CREATE TABLE "x402_payments" (
    "id" UUID NOT NULL,
    "network" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "pay_to" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amount_units" BIGINT NOT NULL,
    "route" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "transaction" TEXT,
    "failure_reason" TEXT,
    "nonce" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "x402_payments_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "x402_payments_network_payer_nonce_key" ON "x402_payments"("network", "payer", "nonce");
CREATE INDEX "x402_payments_created_at_idx" ON "x402_payments"("created_at" DESC);
