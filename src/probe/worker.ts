import type PgBoss from "pg-boss";
import type { ChangeAnnouncer } from "../catalogue/change-announcer";
import { loadProbeTarget, type RecordOutcome, recordProbe } from "../catalogue/probe-writes";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import { probeMcpTool } from "../mcp-tools/probe-mcp";
import { MCP_METHOD } from "../mcp-tools/tool-url";
import { metrics } from "../metrics/metrics";
import { listingDrift, type ProbeDeps, type ProbeOutcome, probeEndpoint } from "./probe-endpoint";
import { JobPump } from "./pump";
import { PROBE_QUEUE, type ProbeJobData } from "./queue";
import type { HostRateLimiter } from "./rate-limit";
import { hostKey } from "./schedule";

export interface ProbeWorkerDeps {
  db: Database;
  probe: ProbeDeps;
  limiter: HostRateLimiter;
  logger: Logger;
  /** Aborts waits for a host's turn when the process stops (the job is then retried elsewhere). */
  signal: AbortSignal;
  counts: ProbeCounts;
  /** Tells API processes about stored probes (without it they notice at their periodic check). */
  changes?: Pick<ChangeAnnouncer, "changed">;
}

/** What this process did since it started; for logs, tests and the benchmark. */
export interface ProbeCounts {
  probed: number;
  skipped: number;
}

export type ProbeJobOutput =
  | { skipped: "endpoint gone" | "already probed" }
  | { outcome: ProbeOutcome; statusCode: number | null; error: string | null; recorded: RecordOutcome };

/**
 * One job: load the endpoint and what listings claim, wait for the host's turn, probe, record.
 * A job whose endpoint was probed after the job was queued is answered already (a retry after a
 * crash, or a duplicate) and is skipped, so retries never probe twice.
 */
export async function handleProbeJob(deps: ProbeWorkerDeps, data: ProbeJobData): Promise<ProbeJobOutput> {
  const target = await loadProbeTarget(deps.db, data.endpointId);
  if (target === null) {
    deps.counts.skipped += 1;
    return { skipped: "endpoint gone" };
  }
  if (target.lastProbedAt !== null && target.lastProbedAt >= new Date(data.enqueuedAt)) {
    deps.counts.skipped += 1;
    return { skipped: "already probed" };
  }
  await deps.limiter.acquire(hostKey(target.url), deps.signal);
  const probedAt = new Date();
  const result =
    target.method === MCP_METHOD
      ? await probeMcpTool(target, { ...deps.probe, signal: deps.signal })
      : await probeEndpoint(target, deps.probe);
  metrics.probeFinished(result.outcome, result.latencyMs);
  const drift = listingDrift(target.listingOptions, result);
  const recorded = await recordProbe(deps.db, { endpointId: target.id, probedAt, result, drift });
  if (recorded !== "gone") deps.changes?.changed();
  deps.counts.probed += 1;
  deps.logger.debug(
    {
      endpointId: target.id,
      outcome: result.outcome,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      drift: drift?.length ?? null,
    },
    "endpoint probed",
  );
  return { outcome: result.outcome, statusCode: result.statusCode, error: result.error, recorded };
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Serves probe jobs with `concurrency` slots until stopped. A job that throws (a database error,
 * or a stop while it waited for its host's turn) is failed and retried once by any worker.
 */
export function startProbeWorkers(
  boss: PgBoss,
  deps: ProbeWorkerDeps,
  concurrency: number,
  pollingIntervalSeconds: number,
): JobPump<PgBoss.Job<ProbeJobData>> {
  const pump = new JobPump<PgBoss.Job<ProbeJobData>>({
    concurrency,
    pollMs: pollingIntervalSeconds * 1000,
    fetch: (count) => boss.fetch<ProbeJobData>(PROBE_QUEUE, { batchSize: count }),
    async run(job) {
      let output: ProbeJobOutput;
      try {
        output = await handleProbeJob(deps, job.data);
      } catch (error) {
        // A stop ends waits for a host's turn on purpose: the job goes back for another worker
        // (one line each would be hundreds of warnings when a sweep is under way).
        if (deps.signal.aborted)
          deps.logger.debug({ endpointId: job.data.endpointId }, "probe job given back: probing is stopping");
        else deps.logger.warn({ err: error, endpointId: job.data.endpointId }, "probe job failed");
        await boss.fail(PROBE_QUEUE, job.id, { message: message(error) });
        return;
      }
      await boss.complete(PROBE_QUEUE, job.id, output);
    },
    onError: (error) => deps.logger.error({ err: error }, "probe worker error"),
  });
  pump.start();
  return pump;
}
