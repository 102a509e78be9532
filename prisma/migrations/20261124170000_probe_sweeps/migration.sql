-- CreateTable
CREATE TABLE "probe_sweeps" (
    "id" UUID NOT NULL,
    "trigger" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "endpoints" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "probe_sweeps_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "probe_sweeps_started_at_idx" ON "probe_sweeps"("started_at");
