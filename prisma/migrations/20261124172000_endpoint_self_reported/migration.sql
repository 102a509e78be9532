-- What a discovery feed says about an endpoint on its seller's behalf (src/normalise/self-reported.ts).
ALTER TABLE "endpoints" ADD COLUMN     "self_reported" JSONB;
