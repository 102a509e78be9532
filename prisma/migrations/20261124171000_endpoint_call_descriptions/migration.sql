-- How to call each endpoint (src/payments/call-description.ts): as its listing source publishes it,
-- and as the latest probe's 402 challenge describes it.
ALTER TABLE "endpoints" ADD COLUMN     "call_description" JSONB,
ADD COLUMN     "probe_call_description" JSONB;
