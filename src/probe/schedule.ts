import type PgBoss from "pg-boss";
import { listProbeTargets } from "../catalogue/probe-writes";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import { PROBE_QUEUE, type ProbeJobData, SWEEP_QUEUE } from "./queue";

const INSERT_BATCH = 1000;

/** Host name of a URL for politeness purposes; an unparsable URL is its own "host". */
export function hostKey(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : url;
}

/**
 * When each endpoint's probe may start: a host's k-th endpoint waits k × (60 s / perMinute), so
 * the cluster as a whole, not just each worker, keeps to the per-host rate, and workers rarely
 * sit idle waiting for one busy host.
 */
export function staggerByHost(
  targets: { id: string; url: string }[],
  perMinute: number,
  now: Date,
): { id: string; startAfter: Date }[] {
  const spacingMs = 60_000 / perMinute;
  const seen = new Map<string, number>();
  return targets.map(({ id, url }) => {
    const host = hostKey(url);
    const index = seen.get(host) ?? 0;
    seen.set(host, index + 1);
    return { id, startAfter: new Date(now.getTime() + index * spacingMs) };
  });
}

/**
 * The sweep: one probe job per endpoint of every listed service, inserted in batches. An endpoint
 * whose previous job still waits gets no second one (queue policy). Returns the endpoints offered.
 */
export async function enqueueProbes(
  boss: PgBoss,
  db: Database,
  perHostPerMinute: number,
  logger: Logger,
  now = new Date(),
): Promise<number> {
  const targets = await listProbeTargets(db);
  const enqueuedAt = now.toISOString();
  const jobs: PgBoss.JobInsert<ProbeJobData>[] = staggerByHost(targets, perHostPerMinute, now).map(
    ({ id, startAfter }) => ({
      name: PROBE_QUEUE,
      data: { endpointId: id, enqueuedAt },
      singletonKey: id,
      startAfter,
    }),
  );
  for (let start = 0; start < jobs.length; start += INSERT_BATCH) {
    await boss.insert(jobs.slice(start, start + INSERT_BATCH));
  }
  logger.info({ endpoints: targets.length }, "probe sweep enqueued");
  return targets.length;
}

/**
 * pg-boss keeps the schedule in the database and fires it once per cron tick across every
 * process that runs a timekeeper; registering it again (each start) just updates it.
 */
export async function registerSweep(boss: PgBoss, cron: string): Promise<void> {
  await boss.schedule(SWEEP_QUEUE, cron, {}, { tz: "UTC" });
}

/** Asks for a sweep now (the same job the schedule sends); one already waiting absorbs it. */
export async function requestSweep(boss: PgBoss): Promise<void> {
  await boss.send(SWEEP_QUEUE, {});
}
