-- Payability verdict of each payment option (src/payability/requirement-verdict.ts). Rows stored
-- before it keep payable NULL ("not judged") until their source is crawled or probed again.
ALTER TABLE "payment_options" ADD COLUMN     "payable" BOOLEAN,
ADD COLUMN     "unpayable_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[];
