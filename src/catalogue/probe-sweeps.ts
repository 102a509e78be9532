import type { Database } from "../db/prisma-client";
import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { completePage, type Page, type Paging } from "./paging";

export type SweepTrigger = "schedule" | "manual";

/** Records that a sweep offered `endpoints` endpoints to the probes now; returns its id. */
export async function startProbeSweep(
  db: Database,
  trigger: SweepTrigger,
  endpoints: number,
): Promise<string> {
  const sweep = await db.probeSweep.create({ data: { trigger, endpoints }, select: { id: true } });
  return sweep.id;
}

export async function finishProbeSweep(db: Database, id: string): Promise<void> {
  await db.probeSweep.update({ where: { id }, data: { finishedAt: new Date() } });
}

export interface ProbeSweepRecord {
  id: string;
  trigger: string;
  startedAt: Date;
  finishedAt: Date | null;
  endpoints: number;
  probed: number;
  /** Probes per outcome (challenge, no_challenge, http_error, network_error, refused). */
  outcomes: Record<string, number>;
}

/**
 * Recent sweeps, newest first. A sweep's probes are those recorded from its start until the
 * next sweep started (or until now), whichever process ran them: scheduled sweeps' probes run on
 * the queue's workers, so they are counted where they landed rather than reported by anyone.
 */
export async function listProbeSweeps(pool: ReadPool, paging: Paging): Promise<Page<ProbeSweepRecord>> {
  const rows = await queryRows<ProbeSweepRecord>(
    pool,
    Prisma.sql`
      WITH page AS (
        SELECT s.*, lead(s.started_at) OVER (ORDER BY s.started_at, s.id) AS window_end
        FROM probe_sweeps s
        ORDER BY s.started_at DESC, s.id DESC
        LIMIT ${paging.limit} OFFSET ${paging.offset}
      )
      SELECT p.id, p.trigger, p.started_at AS "startedAt", p.finished_at AS "finishedAt", p.endpoints,
        coalesce(sum(o.n), 0)::int AS probed,
        coalesce(json_object_agg(o.outcome, o.n) FILTER (WHERE o.outcome IS NOT NULL), '{}'::json) AS outcomes
      FROM page p
      LEFT JOIN LATERAL (
        SELECT ep.outcome, count(*)::int AS n FROM endpoint_probes ep
        WHERE ep.probed_at >= p.started_at AND (p.window_end IS NULL OR ep.probed_at < p.window_end)
        GROUP BY ep.outcome
      ) o ON true
      GROUP BY p.id, p.trigger, p.started_at, p.finished_at, p.endpoints
      ORDER BY p.started_at DESC, p.id DESC`,
  );
  return completePage(rows, paging, async () => {
    const [count] = await queryRows<{ total: number }>(
      pool,
      Prisma.sql`SELECT count(*)::int AS total FROM probe_sweeps`,
    );
    return count?.total ?? 0;
  });
}
