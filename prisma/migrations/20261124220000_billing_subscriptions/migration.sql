-- CreateEnum
CREATE TYPE "subscription_status" AS ENUM ('incomplete', 'active', 'past_due', 'canceled');

-- CreateEnum
CREATE TYPE "invoice_status" AS ENUM ('open', 'paid', 'void');

-- CreateEnum
CREATE TYPE "invoice_kind" AS ENUM ('first', 'upgrade', 'renewal');

-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "csv_rows_per_day" INTEGER NOT NULL DEFAULT 10000,
ADD COLUMN     "name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "period_days" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "price_units" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "webhook_endpoints" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "merchant_user_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "status" "subscription_status" NOT NULL DEFAULT 'incomplete',
    "current_period_start" TIMESTAMPTZ(3) NOT NULL,
    "current_period_end" TIMESTAMPTZ(3) NOT NULL,
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "pending_plan_id" TEXT,
    "pending_plan_change_at" TIMESTAMPTZ(3),
    "trial_ends_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "merchant_user_id" TEXT NOT NULL,
    "kind" "invoice_kind" NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "amount_units" BIGINT NOT NULL,
    "status" "invoice_status" NOT NULL DEFAULT 'open',
    "payment_order_id" UUID NOT NULL,
    "target_plan_id" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "voided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscriptions_organisation_id_environment_created_at_idx" ON "subscriptions"("organisation_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "subscriptions_status_current_period_end_idx" ON "subscriptions"("status", "current_period_end");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_payment_order_id_key" ON "invoices"("payment_order_id");

-- CreateIndex
CREATE INDEX "invoices_subscription_id_created_at_idx" ON "invoices"("subscription_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "invoices_organisation_id_environment_created_at_idx" ON "invoices"("organisation_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "invoices_status_due_at_idx" ON "invoices"("status", "due_at");

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_pending_plan_id_fkey" FOREIGN KEY ("pending_plan_id") REFERENCES "plans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_target_plan_id_fkey" FOREIGN KEY ("target_plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_order_id_fkey" FOREIGN KEY ("payment_order_id") REFERENCES "payment_orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Plans for sale (prices in micro-USDC per 30 days). "default" stays the free plan every
-- organisation starts on; its rate limit is unchanged.
UPDATE "plans" SET "name" = 'Free', "csv_rows_per_day" = 10000, "webhook_endpoints" = 1 WHERE "id" = 'default';
INSERT INTO "plans" ("id", "name", "price_units", "period_days", "requests_per_minute", "csv_rows_per_day", "webhook_endpoints", "updated_at")
VALUES ('starter', 'Starter', 19000000, 30, 6000, 100000, 5, CURRENT_TIMESTAMP),
       ('pro', 'Pro', 99000000, 30, 30000, 1000000, 25, CURRENT_TIMESTAMP);
