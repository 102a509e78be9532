import type { Queryable, ReadPool } from "../db/read-pool";
import { queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import type { Logger } from "../logging/logger";
import type { Environment } from "./scopes";

const DAY_MS = 86_400_000;

interface Tally {
  requests: number;
  csvRows: number;
}

/**
 * Requests and exported CSV rows per key, UTC day and route group. Counting in Postgres per request would add a
 * write to every request, so each process counts in memory and adds its counts to
 * `api_usage` every flush interval (and on shutdown, and before it answers a usage query).
 * A crash loses at most one interval of this process's counts.
 */
export class UsageRecorder {
  private counts = new Map<string, Tally>();
  private lastUsed = new Map<string, Date>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** The UTC day last counted in, and when it starts (ms): most requests fall in it. */
  private day = "";
  private dayStarts = Number.NaN;

  constructor(
    private readonly pool: ReadPool,
    private readonly logger: Logger,
    flushIntervalMs: number,
  ) {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.logger.warn({ err: error }, "recording API usage failed"));
    }, flushIntervalMs);
    this.timer.unref();
  }

  /** One request admitted for a key (after authentication and the rate limit). */
  recordRequest(apiKeyId: string, routeGroup: string, at: Date = new Date()): void {
    this.tally(apiKeyId, routeGroup, at).requests += 1;
    this.lastUsed.set(apiKeyId, at);
  }

  recordCsvRows(apiKeyId: string, routeGroup: string, rows: number, at: Date = new Date()): void {
    this.tally(apiKeyId, routeGroup, at).csvRows += rows;
  }

  private tally(apiKeyId: string, routeGroup: string, at: Date): Tally {
    const bucket = `${apiKeyId}|${this.utcDay(at)}|${routeGroup}`;
    let tally = this.counts.get(bucket);
    if (!tally) {
      tally = { requests: 0, csvRows: 0 };
      this.counts.set(bucket, tally);
    }
    return tally;
  }

  /** `at`'s UTC day (YYYY-MM-DD), formatted once a day rather than per request. */
  private utcDay(at: Date): string {
    const ms = at.getTime();
    if (!(ms >= this.dayStarts && ms < this.dayStarts + DAY_MS)) {
      this.dayStarts = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.day = at.toISOString().slice(0, 10);
    }
    return this.day;
  }

  /** Writes what was counted so far; flushes run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => {}).then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.counts.size === 0) return;
    const counts = this.counts;
    const lastUsed = this.lastUsed;
    this.counts = new Map();
    this.lastUsed = new Map();
    const buckets = [...counts.keys()].map((bucket) => bucket.split("|"));
    try {
      await queryRows(this.pool, addUsage(buckets, [...counts.values()]));
      await queryRows(this.pool, markUsed([...lastUsed.keys()], [...lastUsed.values()]));
    } catch (error) {
      // Counted requests are not dropped: they go out with the next flush.
      for (const [bucket, { requests, csvRows }] of counts) {
        const [id = "", day = "", group = ""] = bucket.split("|");
        const tally = this.tally(id, group, new Date(`${day}T00:00:00Z`));
        tally.requests += requests;
        tally.csvRows += csvRows;
      }
      for (const [id, at] of lastUsed) if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
      throw error;
    }
  }
}

function addUsage(buckets: string[][], tallies: Tally[]): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO api_usage (api_key_id, day, route_group, requests, csv_rows, updated_at)
    SELECT u.id, u.day, u.route_group, u.requests, u.csv_rows, now()
    FROM unnest(${buckets.map((b) => b[0])}::uuid[], ${buckets.map((b) => b[1])}::date[],
                ${buckets.map((b) => b[2])}::text[], ${tallies.map((t) => t.requests)}::bigint[],
                ${tallies.map((t) => t.csvRows)}::bigint[]) AS u(id, day, route_group, requests, csv_rows)
    JOIN api_keys k ON k.id = u.id
    ON CONFLICT (api_key_id, day, route_group)
    DO UPDATE SET requests = api_usage.requests + EXCLUDED.requests,
                  csv_rows = api_usage.csv_rows + EXCLUDED.csv_rows, updated_at = now()`;
}

function markUsed(ids: string[], at: Date[]): Prisma.Sql {
  return Prisma.sql`
    UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.at)
    FROM unnest(${ids}::uuid[], ${at}::timestamptz[]) AS u(id, at)
    WHERE k.id = u.id`;
}

export interface UsageRow {
  day: string;
  api_key_id: string;
  route_group: string;
  requests: string;
  csv_rows: string;
}

/** Usage of one organisation's environment, oldest day first (GET /v1/usage). */
export function usageRows(
  pool: Queryable,
  organisationId: string,
  environment: Environment,
  from: string,
  to: string,
): Promise<UsageRow[]> {
  return queryRows<UsageRow>(
    pool,
    Prisma.sql`
      SELECT to_char(u.day, 'YYYY-MM-DD') AS day, u.api_key_id, u.route_group, u.requests::text AS requests,
             u.csv_rows::text AS csv_rows
      FROM api_usage u JOIN api_keys k ON k.id = u.api_key_id
      WHERE k.organisation_id = ${organisationId}::uuid AND k.environment = ${environment}::environment
        AND u.day BETWEEN ${from}::date AND ${to}::date
      ORDER BY u.day, u.api_key_id, u.route_group`,
  );
}
