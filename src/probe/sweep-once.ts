import { finishProbeSweep, startProbeSweep } from "../catalogue/probe-sweeps";
import { listProbeTargets } from "../catalogue/probe-writes";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import { refreshTrust } from "../trust/refresh";
import { FailureReasons, type ReasonCount, topReasons } from "./failure-reasons";
import type { ProbeOutcome } from "./probe-endpoint";
import { HostRateLimiter } from "./rate-limit";
import { type HostResolver, systemResolver } from "./resolve-target";
import type { ProbeSettings } from "./settings";
import { AddressPolicy } from "./ssrf-guard";
import { probeChangeAnnouncer } from "./start-probing";
import { handleProbeJob, type ProbeCounts } from "./worker";

/** Outcomes a summary explains with their reasons. */
const FAILURES: ReadonlySet<ProbeOutcome> = new Set(["network_error", "http_error", "refused"]);

export interface SweepSummary {
  endpoints: number;
  probed: number;
  outcomes: Partial<Record<ProbeOutcome, number>>;
  /** Why probes failed, per failing outcome (network_error, http_error, refused), most frequent first. */
  reasons: Record<string, ReasonCount[]>;
  /** Endpoints removed or probed by another process since the sweep listed them. */
  skipped: number;
  aborted: boolean;
  durationMs: number;
}

export interface SweepOnceDeps {
  db: Database;
  settings: ProbeSettings;
  logger: Logger;
  signal: AbortSignal;
  resolve?: HostResolver;
}

/**
 * `npm run probe`: one sweep of every endpoint of every listed service, run in this process
 * (no queue, so it works next to a cluster or alone, from cron or right after adding a source),
 * with the same probe, politeness, SSRF guard and recording as the queued workers.
 */
export async function sweepOnce(deps: SweepOnceDeps): Promise<SweepSummary> {
  const started = Date.now();
  const targets = await listProbeTargets(deps.db);
  const sweepId = await startProbeSweep(deps.db, "manual", targets.length);
  deps.logger.info({ endpoints: targets.length }, `probe sweep of ${targets.length} endpoints started`);
  const counts: ProbeCounts = { probed: 0, skipped: 0 };
  const outcomes: Partial<Record<ProbeOutcome, number>> = {};
  const reasons = new FailureReasons();
  const changes = probeChangeAnnouncer(deps.db, deps.logger);
  const workerDeps = {
    db: deps.db,
    probe: {
      settings: deps.settings,
      policy: new AddressPolicy(deps.settings.allowedNetworks),
      resolve: deps.resolve ?? systemResolver,
    },
    limiter: new HostRateLimiter(deps.settings.perHostPerMinute),
    logger: deps.logger,
    signal: deps.signal,
    counts,
    changes,
  };
  const enqueuedAt = new Date(started).toISOString();
  let next = 0;
  const slot = async () => {
    while (next < targets.length && !deps.signal.aborted) {
      const target = targets[next++];
      if (!target) break;
      try {
        const output = await handleProbeJob(workerDeps, { endpointId: target.id, enqueuedAt });
        if ("outcome" in output) {
          outcomes[output.outcome] = (outcomes[output.outcome] ?? 0) + 1;
          if (FAILURES.has(output.outcome)) reasons.add(output.outcome, output.error);
        }
      } catch (error) {
        if (!deps.signal.aborted) throw error; // a stop while waiting for a host's turn is not a failure
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.settings.concurrency, targets.length) }, slot));
  await finishProbeSweep(deps.db, sweepId);
  if (!deps.signal.aborted) await refreshTrust(deps.db, deps.settings.trust, deps.logger);
  await changes.flush();
  return {
    endpoints: targets.length,
    probed: counts.probed,
    outcomes,
    reasons: reasons.byOutcome(),
    skipped: counts.skipped,
    aborted: deps.signal.aborted,
    durationMs: Date.now() - started,
  };
}

/**
 * "probe sweep finished in 2.1 s: 5 of 5 endpoints probed (3 challenge; 2 network_error: 2 DNS:
 * host not found (ENOTFOUND))": each failing outcome with its top reasons.
 */
export function sweepSummaryLine(summary: SweepSummary): string {
  const outcomes = Object.entries(summary.outcomes)
    .sort(([, a], [, b]) => b - a)
    .map(([outcome, count]) => {
      const why = summary.reasons[outcome];
      return why && why.length > 0 ? `${count} ${outcome}: ${topReasons(why)}` : `${count} ${outcome}`;
    })
    .join("; ");
  return (
    `probe sweep ${summary.aborted ? "stopped" : "finished"} in ${(summary.durationMs / 1000).toFixed(1)} s: ` +
    `${summary.probed} of ${summary.endpoints} endpoints probed${outcomes ? ` (${outcomes})` : ""}` +
    (summary.skipped > 0 ? `, ${summary.skipped} skipped` : "")
  );
}
