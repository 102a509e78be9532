import { setMaxListeners } from "node:events";
import { announceCatalogueChange, pruneCatalogueChanges } from "../catalogue/catalogue-changes";
import { ChangeAnnouncer } from "../catalogue/change-announcer";
import { startProbeSweep } from "../catalogue/probe-sweeps";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import { refreshTrust } from "../trust/refresh";
import type { JobPump } from "./pump";
import { createBoss, ensureQueues, SWEEP_QUEUE } from "./queue";
import { HostRateLimiter } from "./rate-limit";
import { type HostResolver, systemResolver } from "./resolve-target";
import { enqueueProbes, registerSweep, requestSweep } from "./schedule";
import type { ProbeSettings } from "./settings";
import { AddressPolicy } from "./ssrf-guard";
import { type ProbeCounts, startProbeWorkers } from "./worker";

export interface ProbingDeps {
  db: Database;
  databaseUrl: string;
  settings: ProbeSettings;
  logger: Logger;
  /** Probe endpoints in this process too (`npm run worker` always does; `npm start` by default). */
  runWorker: boolean;
  /** Tests map made-up host names to chosen addresses. */
  resolve?: HostResolver;
}

export interface Probing {
  /** Stops fetching jobs, lets probes in flight finish (at most the probe time limit), closes the queue. */
  stop(): Promise<void>;
  /** Queues a sweep now, as the schedule would. */
  requestSweep(): Promise<void>;
  readonly counts: Readonly<ProbeCounts>;
}

/** API processes hear of stored probes within a second (they refresh the probed endpoints in place). */
export function probeChangeAnnouncer(db: Database, logger: Logger): ChangeAnnouncer {
  return new ChangeAnnouncer(() => announceCatalogueChange(db), 1_000, logger);
}

/**
 * Joins the cluster's probe queue: registers the sweep schedule (stored in Postgres, fired once
 * per tick across all processes), serves sweep jobs, and with runWorker serves probe jobs with
 * `concurrency` slots and per-host politeness. With probing disabled it does nothing.
 */
export async function startProbing(deps: ProbingDeps): Promise<Probing> {
  const { settings, logger } = deps;
  const counts: ProbeCounts = { probed: 0, skipped: 0 };
  if (!settings.enabled) {
    logger.info("PROBE_ENABLED is false: this process neither schedules nor runs probes");
    return { stop: async () => {}, requestSweep: async () => {}, counts };
  }
  // Queries are short (claim, complete, sweep inserts): a few connections serve many slots.
  const boss = createBoss(deps.databaseUrl, deps.runWorker ? 6 : 3);
  boss.on("error", (err) => logger.error({ err }, "probe queue error"));
  const controller = new AbortController();
  // Every slot waiting for its host's turn listens to this one signal.
  setMaxListeners(settings.concurrency + 10, controller.signal);
  let workers: JobPump<unknown> | null = null;
  const changes = probeChangeAnnouncer(deps.db, logger);
  await boss.start();
  try {
    await ensureQueues(boss);
    await registerSweep(boss, settings.schedule);
    const sweepOptions = { batchSize: 1, pollingIntervalSeconds: settings.pollingIntervalSeconds };
    await boss.work(SWEEP_QUEUE, sweepOptions, async () => {
      // The previous sweep's probes have landed (or timed out) by now: its verdicts come first,
      // so the targets below already follow the health they decided.
      await refreshTrust(deps.db, settings.trust, logger);
      const offered = await enqueueProbes(boss, deps.db, settings.perHostPerMinute, logger);
      await startProbeSweep(deps.db, "schedule", offered);
      // Probes are the catalogue's steady writers, so their once-per-cluster sweep also prunes the
      // change log they grow.
      await pruneCatalogueChanges(deps.db);
      // This process's own slots need not wait for their next poll.
      workers?.notify();
      return { offered };
    });
    if (deps.runWorker) {
      const probe = {
        settings,
        policy: new AddressPolicy(settings.allowedNetworks),
        resolve: deps.resolve ?? systemResolver,
      };
      const limiter = new HostRateLimiter(settings.perHostPerMinute);
      const workerDeps = { db: deps.db, probe, limiter, logger, signal: controller.signal, counts, changes };
      workers = startProbeWorkers(boss, workerDeps, settings.concurrency, settings.pollingIntervalSeconds);
    }
  } catch (error) {
    await workers?.stop();
    await boss.stop({ graceful: false });
    throw error;
  }
  logger.info(
    {
      schedule: settings.schedule,
      worker: deps.runWorker,
      concurrency: deps.runWorker ? settings.concurrency : 0,
      perHostPerMinute: settings.perHostPerMinute,
    },
    "probing started",
  );
  return {
    counts,
    requestSweep: () => requestSweep(boss),
    async stop() {
      // Waits for a host's turn end now; probes in flight finish (bounded by the time limit).
      controller.abort(new Error("probing is stopping"));
      await workers?.stop();
      await changes.flush();
      await boss.stop({ graceful: true, wait: true, timeout: settings.timeoutMs + 5_000 });
    },
  };
}
