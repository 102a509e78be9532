-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "claimed_by" INTEGER;

-- CreateIndex
CREATE INDEX "webhook_deliveries_claimed_by_idx" ON "webhook_deliveries"("claimed_by");
