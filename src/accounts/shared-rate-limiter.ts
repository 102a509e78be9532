import { type RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { ReadPool } from "../db/read-pool";
import { sharedCounter } from "./shared-counter";

/** Limits are per minute: one fixed window, shared by every process through Postgres. */
export const RATE_WINDOW_MS = 60_000;
/** Most points one process reserves at once, and the share of what is left it may take. */
const MAX_RESERVATION = 100;
const RESERVATION_SHARE = 16;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** What is left in this window (approximate under reservations, never more than the truth). */
  remaining: number;
  /** Until the window ends (allowed) or the next request can pass (refused). */
  resetMs: number;
}

interface Allowance {
  windowEnds: number;
  /** Points this process reserved in the shared counter and has not spent yet. */
  local: number;
  /** What the shared counter had left for everyone after this process's last reservation. */
  sharedRemaining: number;
  reserving?: Promise<void>;
}

/**
 * A rate limit shared by every API process, counted in Postgres by rate-limiter-flexible.
 * One round trip per request would cost more than the search it guards, so each process
 * reserves points in blocks: a sixteenth of what the window has left, at most 100, and at
 * least one. Far from the limit one upsert serves many requests; near it every request
 * reserves exactly one point, so the shared counter is never exceeded and two processes
 * enforce one exact limit. A process that learns the window is spent refuses locally until
 * it ends (no query). Reserved points a process does not spend before the window ends are
 * lost, which can only make a limit stricter, by at most a sixteenth per process.
 * If Postgres fails, rate-limiter-flexible's insurance limiter counts in memory instead.
 */
export class SharedRateLimiter {
  private readonly store: RateLimiterPostgres;
  private readonly allowances = new Map<string, Allowance>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(pool: ReadPool) {
    this.store = sharedCounter(pool, "rl", RATE_WINDOW_MS / 1000, true);
    this.sweeper = setInterval(() => this.forgetEndedWindows(), RATE_WINDOW_MS);
    this.sweeper.unref();
  }

  async consume(key: string, limit: number): Promise<RateDecision> {
    for (;;) {
      const allowance = this.allowances.get(key);
      if (allowance?.reserving) {
        await allowance.reserving;
        continue;
      }
      const now = Date.now();
      if (allowance && now < allowance.windowEnds) {
        const resetMs = allowance.windowEnds - now;
        if (allowance.local > 0) {
          allowance.local -= 1;
          const remaining = Math.min(limit, allowance.sharedRemaining + allowance.local);
          return { allowed: true, limit, remaining, resetMs };
        }
        if (allowance.sharedRemaining <= 0) return { allowed: false, limit, remaining: 0, resetMs };
      }
      const entry =
        allowance && now < allowance.windowEnds
          ? allowance
          : { windowEnds: 0, local: 0, sharedRemaining: limit };
      this.allowances.set(key, entry);
      entry.reserving = this.reserve(key, entry, limit).finally(() => {
        entry.reserving = undefined;
      });
      await entry.reserving;
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private async reserve(key: string, allowance: Allowance, limit: number): Promise<void> {
    const size = Math.max(
      1,
      Math.min(MAX_RESERVATION, Math.floor(allowance.sharedRemaining / RESERVATION_SHARE)),
    );
    const result = await this.store.consume(key, size).catch((refusal: unknown) => {
      if (refusal instanceof RateLimiterRes) return refusal;
      throw refusal;
    });
    const before = result.consumedPoints - size;
    allowance.local += Math.max(0, Math.min(size, limit - before));
    allowance.sharedRemaining = Math.max(0, limit - result.consumedPoints);
    allowance.windowEnds = Date.now() + Math.max(result.msBeforeNext, 1);
  }

  private forgetEndedWindows(): void {
    const now = Date.now();
    for (const [key, allowance] of this.allowances) {
      if (!allowance.reserving && allowance.windowEnds <= now) this.allowances.delete(key);
    }
  }
}
