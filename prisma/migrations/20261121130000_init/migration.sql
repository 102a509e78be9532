-- CreateEnum
CREATE TYPE "source_kind" AS ENUM ('html_directory', 'bazaar');

-- CreateEnum
CREATE TYPE "service_status" AS ENUM ('listed', 'delisted');

-- CreateEnum
CREATE TYPE "crawl_status" AS ENUM ('running', 'completed', 'partial', 'failed', 'aborted');

-- CreateTable
CREATE TABLE "sources" (
    "id" UUID NOT NULL,
    "kind" "source_kind" NOT NULL,
    "base_url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "services" (
    "id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "detail_url" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT,
    "description" TEXT,
    "category" TEXT,
    "status" "service_status" NOT NULL DEFAULT 'listed',
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "delisted_at" TIMESTAMPTZ(3),
    "content_hash" TEXT,
    "uptime_30d" DOUBLE PRECISION,
    "avg_response_ms_30d" DOUBLE PRECISION,
    "info_updated_at" TIMESTAMPTZ(3),
    "volume_usdc_30d" DECIMAL(38,6),
    "tx_count_30d" INTEGER,
    "payer_count_30d" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "services_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoints" (
    "id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "method" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_tags" (
    "service_id" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_tags_pkey" PRIMARY KEY ("service_id","tag")
);

-- CreateTable
CREATE TABLE "stats_snapshots" (
    "id" BIGSERIAL NOT NULL,
    "service_id" UUID NOT NULL,
    "observed_from" TIMESTAMPTZ(3) NOT NULL,
    "observed_to" TIMESTAMPTZ(3) NOT NULL,
    "uptime_30d" DOUBLE PRECISION,
    "avg_response_ms_30d" DOUBLE PRECISION,
    "info_updated_at" TIMESTAMPTZ(3),
    "volume_usdc_30d" DECIMAL(38,6),
    "tx_count_30d" INTEGER,
    "payer_count_30d" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stats_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_runs" (
    "id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "status" "crawl_status" NOT NULL DEFAULT 'running',
    "trigger" TEXT NOT NULL DEFAULT 'manual',
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "duration_ms" INTEGER,
    "listing_complete" BOOLEAN NOT NULL DEFAULT false,
    "pages_fetched" INTEGER NOT NULL DEFAULT 0,
    "pages_failed" INTEGER NOT NULL DEFAULT 0,
    "pages_unchanged" INTEGER NOT NULL DEFAULT 0,
    "services_seen" INTEGER NOT NULL DEFAULT 0,
    "services_new" INTEGER NOT NULL DEFAULT 0,
    "services_updated" INTEGER NOT NULL DEFAULT 0,
    "services_unchanged" INTEGER NOT NULL DEFAULT 0,
    "services_delisted" INTEGER NOT NULL DEFAULT 0,
    "value_problems" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crawl_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_errors" (
    "id" BIGSERIAL NOT NULL,
    "crawl_run_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status_code" INTEGER,
    "field" TEXT,
    "raw_text" TEXT,
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_errors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "page_cache" (
    "source_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "etag" TEXT,
    "last_modified" TEXT,
    "content_hash" TEXT NOT NULL,
    "extracted" JSONB,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "page_cache_pkey" PRIMARY KEY ("source_id","url")
);

-- CreateIndex
CREATE UNIQUE INDEX "sources_kind_base_url_key" ON "sources"("kind", "base_url");

-- CreateIndex
CREATE INDEX "services_status_volume_usdc_30d_id_idx" ON "services"("status", "volume_usdc_30d" DESC, "id");

-- CreateIndex
CREATE INDEX "services_status_tx_count_30d_id_idx" ON "services"("status", "tx_count_30d" DESC, "id");

-- CreateIndex
CREATE INDEX "services_category_idx" ON "services"("category");

-- CreateIndex
CREATE INDEX "services_domain_idx" ON "services"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "services_source_id_detail_url_key" ON "services"("source_id", "detail_url");

-- CreateIndex
CREATE INDEX "endpoints_method_idx" ON "endpoints"("method");

-- CreateIndex
CREATE UNIQUE INDEX "endpoints_service_id_method_url_key" ON "endpoints"("service_id", "method", "url");

-- CreateIndex
CREATE INDEX "service_tags_tag_idx" ON "service_tags"("tag");

-- CreateIndex
CREATE INDEX "stats_snapshots_service_id_observed_from_idx" ON "stats_snapshots"("service_id", "observed_from");

-- CreateIndex
CREATE INDEX "crawl_runs_source_id_started_at_idx" ON "crawl_runs"("source_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "crawl_runs_started_at_idx" ON "crawl_runs"("started_at" DESC);

-- CreateIndex
CREATE INDEX "crawl_errors_crawl_run_id_idx" ON "crawl_errors"("crawl_run_id");

-- AddForeignKey
ALTER TABLE "services" ADD CONSTRAINT "services_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_tags" ADD CONSTRAINT "service_tags_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stats_snapshots" ADD CONSTRAINT "stats_snapshots_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_runs" ADD CONSTRAINT "crawl_runs_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_errors" ADD CONSTRAINT "crawl_errors_crawl_run_id_fkey" FOREIGN KEY ("crawl_run_id") REFERENCES "crawl_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_cache" ADD CONSTRAINT "page_cache_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
