-- When each order took its deposit address and when it gave it up: a transfer belongs to the order
-- that held the address at the transfer's block time (src/billing/address-holder.ts), so a
-- transfer read late, after its address passed to another order, is never credited to that order.
-- AlterTable
ALTER TABLE "payment_instructions" ADD COLUMN     "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "released_at" TIMESTAMPTZ(3);

-- Existing orders took their addresses when they were created and gave them up when they left
-- `created`.
UPDATE "payment_instructions" i
SET "assigned_at" = o."created_at",
    "released_at" = CASE o."status"
      WHEN 'paid' THEN o."paid_at"
      WHEN 'expired' THEN o."expired_at"
      WHEN 'canceled' THEN o."canceled_at"
    END
FROM "payment_orders" o
WHERE o."id" = i."order_id";
