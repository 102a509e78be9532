-- CreateTable
CREATE TABLE "activity_transfers" (
    "chain" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    "from_address" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "value_units" DECIMAL(78,0) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_transfers_pkey" PRIMARY KEY ("chain","tx_hash","log_index")
);

-- CreateTable
CREATE TABLE "activity_cursors" (
    "chain" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "last_block" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "activity_cursors_pkey" PRIMARY KEY ("chain","address")
);

-- CreateTable
CREATE TABLE "activity_blocks" (
    "chain" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_blocks_pkey" PRIMARY KEY ("chain","block_number")
);

-- CreateTable
CREATE TABLE "activity_flags" (
    "chain" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "rule" TEXT NOT NULL,
    "transactions" TEXT[],
    "transaction_count" INTEGER NOT NULL,
    "first_flagged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_flags_pkey" PRIMARY KEY ("chain","tx_hash","log_index","rule")
);

-- CreateTable
CREATE TABLE "service_activity" (
    "service_id" UUID NOT NULL,
    "observed_volume_usdc_30d" DECIMAL(38,6) NOT NULL,
    "adjusted_volume_usdc_30d" DECIMAL(38,6) NOT NULL,
    "observed_tx_count_30d" INTEGER NOT NULL,
    "unique_payers_30d" INTEGER NOT NULL,
    "adjusted_unique_payers_30d" INTEGER NOT NULL,
    "flagged_transfers_30d" INTEGER NOT NULL,
    "claim_ratio" DOUBLE PRECISION,
    "observed" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "service_activity_pkey" PRIMARY KEY ("service_id")
);

-- CreateTable
CREATE TABLE "endpoint_activity" (
    "endpoint_id" UUID NOT NULL,
    "observed" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endpoint_activity_pkey" PRIMARY KEY ("endpoint_id")
);

-- CreateTable
CREATE TABLE "service_activity_days" (
    "service_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "volume_usdc" DECIMAL(38,6) NOT NULL,
    "tx_count" INTEGER NOT NULL,
    "unique_payers" INTEGER NOT NULL,
    "adjusted_volume_usdc" DECIMAL(38,6) NOT NULL,
    "adjusted_tx_count" INTEGER NOT NULL,
    "adjusted_unique_payers" INTEGER NOT NULL,

    CONSTRAINT "service_activity_days_pkey" PRIMARY KEY ("service_id","day")
);

-- CreateIndex
CREATE INDEX "activity_transfers_chain_to_address_block_time_idx" ON "activity_transfers"("chain", "to_address", "block_time");

-- CreateIndex
CREATE INDEX "activity_transfers_chain_from_address_block_time_idx" ON "activity_transfers"("chain", "from_address", "block_time");

-- CreateIndex
CREATE INDEX "activity_transfers_chain_block_number_idx" ON "activity_transfers"("chain", "block_number");

-- CreateIndex
CREATE INDEX "activity_cursors_chain_last_block_idx" ON "activity_cursors"("chain", "last_block");

-- CreateIndex
CREATE INDEX "service_activity_observed_volume_usdc_30d_idx" ON "service_activity"("observed_volume_usdc_30d");

-- CreateIndex
CREATE INDEX "service_activity_adjusted_volume_usdc_30d_idx" ON "service_activity"("adjusted_volume_usdc_30d");

-- AddForeignKey
ALTER TABLE "service_activity" ADD CONSTRAINT "service_activity_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_activity" ADD CONSTRAINT "endpoint_activity_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

