-- CreateEnum
CREATE TYPE "payment_order_status" AS ENUM ('created', 'paid', 'expired', 'canceled');

-- CreateTable
CREATE TABLE "payment_orders" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "merchant_order_id" TEXT NOT NULL,
    "requested_amount" TEXT NOT NULL,
    "amount_units" BIGINT NOT NULL,
    "received_units" BIGINT NOT NULL DEFAULT 0,
    "status" "payment_order_status" NOT NULL DEFAULT 'created',
    "metadata" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "expired_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_instructions" (
    "order_id" UUID NOT NULL,
    "chain" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "address" TEXT NOT NULL,

    CONSTRAINT "payment_instructions_pkey" PRIMARY KEY ("order_id","chain","asset")
);

-- CreateTable
CREATE TABLE "deposit_addresses" (
    "chain" TEXT NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "order_id" UUID,
    "released_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_addresses_pkey" PRIMARY KEY ("chain","derivation_index")
);

-- CreateTable
CREATE TABLE "chain_transfers" (
    "chain" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    "from_address" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "value_units" BIGINT NOT NULL,
    "order_id" UUID,
    "applied" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_transfers_pkey" PRIMARY KEY ("chain","tx_hash","log_index")
);

-- CreateTable
CREATE TABLE "settlement_cursors" (
    "chain" TEXT NOT NULL,
    "last_block" BIGINT NOT NULL,
    "last_block_time" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settlement_cursors_pkey" PRIMARY KEY ("chain")
);

-- CreateIndex
CREATE INDEX "payment_orders_organisation_id_environment_created_at_idx" ON "payment_orders"("organisation_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payment_orders_status_expires_at_idx" ON "payment_orders"("status", "expires_at");

-- CreateIndex
CREATE INDEX "payment_instructions_chain_address_idx" ON "payment_instructions"("chain", "address");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_addresses_chain_address_key" ON "deposit_addresses"("chain", "address");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_addresses_chain_order_id_key" ON "deposit_addresses"("chain", "order_id");

-- CreateIndex
CREATE INDEX "chain_transfers_order_id_idx" ON "chain_transfers"("order_id");

-- AddForeignKey
ALTER TABLE "payment_instructions" ADD CONSTRAINT "payment_instructions_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "payment_orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
