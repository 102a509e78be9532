import { fixedStatement, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { sameKeyHash } from "./api-key-tokens";
import type { KeyCache } from "./key-cache";
import type { Environment, Scope } from "./scopes";

/** What a request learns about its key: who it acts for, what it may do, how fast. */
export interface VerifiedKey {
  id: string;
  organisationId: string;
  environment: Environment;
  scopes: readonly Scope[];
  revoked: boolean;
  requestsPerMinute: number;
  /** CSV rows the organisation's plan lets this environment export a day. */
  csvRowsPerDay: number;
}

interface KeyRow {
  id: string;
  key_hash: Buffer;
  organisation_id: string;
  environment: Environment;
  scopes: Scope[];
  revoked: boolean;
  requests_per_minute: number;
  csv_rows_per_day: number;
}

const LOOKUP = fixedStatement(Prisma.sql`
  SELECT k.id, k.key_hash, k.organisation_id, k.environment::text AS environment, k.scopes,
         k.revoked_at IS NOT NULL AS revoked, p.requests_per_minute, p.csv_rows_per_day
  FROM api_keys k
  JOIN organisations o ON o.id = k.organisation_id
  JOIN plans p ON p.id = o.plan_id
  WHERE k.key_hash = ANY($1::bytea[])`);

interface Waiter {
  hash: Buffer;
  resolve(key: VerifiedKey | undefined): void;
  reject(error: unknown): void;
}

/**
 * Finds a request's key: in the process's key cache when it may be trusted (key-cache.ts: a
 * revocation returns only once every process dropped the key), else in Postgres. Lookups are
 * batched: while one query runs, arriving requests wait for the next one, which starts after
 * they arrived (so it sees every revocation they could have seen) and answers all of them in one
 * round trip, whatever their keys. Without a cache every request is looked up.
 */
export class KeyVerifier {
  private waiting: Waiter[] = [];
  private running = false;

  constructor(
    private readonly pool: ReadPool,
    private readonly cache?: KeyCache<VerifiedKey>,
  ) {}

  async verify(hash: Buffer): Promise<VerifiedKey | undefined> {
    const cacheKey = hash.toString("hex");
    const cached = this.cache?.get(cacheKey);
    if (cached) return cached;
    const generation = this.cache?.currentGeneration() ?? 0;
    const found = await new Promise<VerifiedKey | undefined>((resolve, reject) => {
      this.waiting.push({ hash, resolve, reject });
      if (!this.running) void this.runBatches();
    });
    if (found) this.cache?.set(cacheKey, found, generation);
    return found;
  }

  /** Whether verified keys are served from memory now. */
  caching(): boolean {
    return this.cache?.trusted() ?? false;
  }

  async close(): Promise<void> {
    await this.cache?.close();
  }

  private async runBatches(): Promise<void> {
    this.running = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const { rows } = await this.pool.query<KeyRow>({
          ...LOOKUP,
          values: [batch.map((waiter) => waiter.hash)],
        });
        for (const waiter of batch) waiter.resolve(matchingKey(rows, waiter.hash));
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.running = false;
  }
}

function matchingKey(rows: KeyRow[], hash: Buffer): VerifiedKey | undefined {
  // The index found the row; the comparison that decides is constant-time.
  const row = rows.find((candidate) => sameKeyHash(candidate.key_hash, hash));
  if (!row) return undefined;
  return {
    id: row.id,
    organisationId: row.organisation_id,
    environment: row.environment,
    scopes: row.scopes,
    revoked: row.revoked,
    requestsPerMinute: row.requests_per_minute,
    csvRowsPerDay: row.csv_rows_per_day,
  };
}
