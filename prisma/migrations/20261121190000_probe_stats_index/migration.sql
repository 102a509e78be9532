-- DropIndex
DROP INDEX "endpoint_probes_endpoint_id_probed_at_idx";

-- CreateIndex
CREATE INDEX "endpoint_probes_endpoint_id_probed_at_status_code_latency_m_idx" ON "endpoint_probes"("endpoint_id", "probed_at" DESC, "status_code", "latency_ms", "outcome");
