-- A payment is recorded pending once verified, before the answer is sent, and settled after it:
-- what a retry needs to settle it again (the payer's signed payload and the requirements it
-- answers), how often it was tried and when it is tried next. Both JSON values are cleared once
-- the payment is settled or failed.
ALTER TABLE "x402_payments"
    ADD COLUMN "payment_payload" JSONB,
    ADD COLUMN "requirements" JSONB,
    ADD COLUMN "valid_before" TIMESTAMPTZ(3),
    ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3);

-- The retry job's query: pending payments due for another attempt.
CREATE INDEX "x402_payments_status_next_attempt_at_idx" ON "x402_payments"("status", "next_attempt_at");
