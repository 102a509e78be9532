import { fixedStatement, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { sameKeyHash } from "./api-key-tokens";
import type { Environment, Scope } from "./scopes";

/** What a request learns about its key: who it acts for, what it may do, how fast. */
export interface VerifiedKey {
  id: string;
  organisationId: string;
  environment: Environment;
  scopes: readonly Scope[];
  revoked: boolean;
  requestsPerMinute: number;
}

interface KeyRow {
  id: string;
  key_hash: Buffer;
  organisation_id: string;
  environment: Environment;
  scopes: Scope[];
  revoked: boolean;
  requests_per_minute: number;
}

const LOOKUP = fixedStatement(Prisma.sql`
  SELECT k.id, k.key_hash, k.organisation_id, k.environment::text AS environment, k.scopes,
         k.revoked_at IS NOT NULL AS revoked, p.requests_per_minute
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
 * Looks keys up in Postgres on every request, so a revocation committed before a request
 * arrived refuses it on every replica, with no cache to invalidate. To keep that cheap under
 * load, lookups are batched: while one query runs, arriving requests wait for the next one,
 * which starts after they arrived (so it sees every revocation they could have seen) and
 * answers all of them in one round trip, whatever their keys.
 */
export class KeyVerifier {
  private waiting: Waiter[] = [];
  private running = false;

  constructor(private readonly pool: ReadPool) {}

  verify(hash: Buffer): Promise<VerifiedKey | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ hash, resolve, reject });
      if (!this.running) void this.runBatches();
    });
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
  };
}
