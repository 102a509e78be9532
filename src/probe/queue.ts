import PgBoss from "pg-boss";

/**
 * Probe work lives in Postgres (pg-boss, schema `pgboss` of the catalogue's database), so any
 * number of `npm start` / `npm run worker` processes share it: a job is fetched by exactly one
 * of them (SELECT … FOR UPDATE SKIP LOCKED).
 */

export const PROBE_QUEUE = "probe-endpoint";
export const SWEEP_QUEUE = "probe-sweep";

export interface ProbeJobData {
  endpointId: string;
  /** When the sweep queued it: a probe recorded after this moment already answers the job. */
  enqueuedAt: string;
}

export function createBoss(databaseUrl: string, maxConnections: number): PgBoss {
  return new PgBoss({
    connectionString: databaseUrl,
    schema: "pgboss",
    application_name: "x402-catalogue probe queue",
    max: maxConnections,
    // Probe history lives in endpoint_probes; finished jobs are only worth keeping briefly.
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 1,
  });
}

/**
 * Policy "short": at most one *queued* job per singletonKey (the endpoint id), so a sweep that
 * fires while the previous one's jobs still wait adds nothing for those endpoints. Not
 * "singleton"/"stately": their one-active-per-key rule makes the whole fetch fail while a
 * same-key job runs, stalling every worker (pg-boss issues #535 and #536). A second probe of
 * one endpoint in a sweep is instead prevented by the worker (see ProbeJobData.enqueuedAt).
 * One retry covers a worker that died or stopped mid-job; expiry bounds a stuck one.
 */
export async function ensureQueues(boss: PgBoss): Promise<void> {
  const probe = {
    policy: "short",
    retryLimit: 1,
    retryDelay: 30,
    expireInSeconds: 15 * 60,
    // A probe request not served within a day is stale: the next sweeps ask again.
    retentionMinutes: 24 * 60,
  } as const;
  const sweep = { policy: "short", retryLimit: 1, retryDelay: 60, expireInSeconds: 10 * 60 } as const;
  await boss.createQueue(PROBE_QUEUE, { name: PROBE_QUEUE, ...probe });
  await boss.createQueue(SWEEP_QUEUE, { name: SWEEP_QUEUE, ...sweep });
  // createQueue keeps an existing queue as it was; this brings its options up to date.
  await boss.updateQueue(PROBE_QUEUE, { name: PROBE_QUEUE, ...probe });
  await boss.updateQueue(SWEEP_QUEUE, { name: SWEEP_QUEUE, ...sweep });
}
