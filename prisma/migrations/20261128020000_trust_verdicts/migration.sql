-- Trust verdicts (src/trust): health, checks, grade, score and warnings per endpoint and service,
-- refreshed after each probe sweep; each probe keeps the checks its answer decided on its own.
-- AlterTable
ALTER TABLE "endpoints" ADD COLUMN     "health" TEXT NOT NULL DEFAULT 'unknown',
ADD COLUMN     "health_reason" TEXT,
ADD COLUMN     "health_changed_at" TIMESTAMPTZ(3),
ADD COLUMN     "checks" JSONB,
ADD COLUMN     "grade" TEXT,
ADD COLUMN     "score" INTEGER,
ADD COLUMN     "trust_warnings" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "services" ADD COLUMN     "health" TEXT NOT NULL DEFAULT 'unknown',
ADD COLUMN     "health_reason" TEXT,
ADD COLUMN     "health_changed_at" TIMESTAMPTZ(3),
ADD COLUMN     "grade" TEXT,
ADD COLUMN     "score" INTEGER,
ADD COLUMN     "trust_warnings" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "endpoint_probes" ADD COLUMN     "checks" JSONB,
ADD COLUMN     "auth_only" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "endpoints_health_idx" ON "endpoints"("health");

-- CreateIndex
CREATE INDEX "services_health_idx" ON "services"("health");

-- CreateIndex
CREATE INDEX "services_score_idx" ON "services"("score");
