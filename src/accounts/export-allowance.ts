import type { RateLimiterPostgres } from "rate-limiter-flexible";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";
import { sharedCounter } from "./shared-counter";

const DAY_SECONDS = 86_400;

export interface ExportUse {
  /** CSV rows exported in the current 24-hour window. */
  rows: number;
  /** Until that window ends (0 when nothing was exported yet). */
  resetMs: number;
}

/**
 * CSV rows exported per day, per organisation and environment (keyed) or per client address
 * (anonymous), counted in Postgres by rate-limiter-flexible so every API process shares one
 * count. A window lasts 24 hours from the first export in it. The allowance is checked when an
 * export starts and an export's rows are counted when it ends, so one export may end past the
 * allowance (it is never cut off mid-file); the next one is refused until the window ends.
 */
export class ExportAllowance {
  private readonly store: RateLimiterPostgres;

  constructor(
    pool: ReadPool,
    private readonly logger: Logger,
  ) {
    this.store = sharedCounter(pool, "csv", DAY_SECONDS);
  }

  async used(subject: string): Promise<ExportUse> {
    const state = await this.store.get(subject);
    return { rows: state?.consumedPoints ?? 0, resetMs: state?.msBeforeNext ?? 0 };
  }

  /** Counts an ended export's rows; a failure is logged (the rows were sent: nothing to refuse). */
  async record(subject: string, rows: number): Promise<void> {
    if (rows <= 0) return;
    try {
      await this.store.penalty(subject, rows);
    } catch (error) {
      this.logger.warn({ err: error, rows }, "could not count exported CSV rows toward the daily allowance");
    }
  }
}
