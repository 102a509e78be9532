import type { RateLimiterPostgres } from "rate-limiter-flexible";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";
import { sharedCounter } from "./shared-counter";

const DAY_SECONDS = 86_400;

export interface ExportUse {
  /** CSV rows exported (or reserved by exports under way) in the current 24-hour window. */
  rows: number;
  /** Until that window ends (0 when nothing was exported yet). */
  resetMs: number;
}

export interface ExportReservation {
  /** The rows are reserved; otherwise the allowance was spent before this export. */
  granted: boolean;
  /** What the window had counted before this export (what a refusal reports). */
  before: ExportUse;
  /** The rows this export holds (0 when refused). */
  reserved: number;
  /** When the window the rows were counted in ends (epoch ms). */
  windowEndsAt: number;
}

/**
 * CSV rows exported per day, per organisation and environment (keyed) or per client address
 * (anonymous), counted in Postgres by rate-limiter-flexible so every API process shares one
 * count. A window lasts 24 hours from the first export in it. An export reserves the rows it is
 * about to send before it sends any, in one atomic addition: it may start while the count is
 * under the allowance, so the one export whose reservation crosses the allowance is sent whole
 * (never cut off mid-file) and every later one is refused until the window ends, however many
 * start at once on however many processes. When it ends, the count is set to what it sent.
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

  async reserve(subject: string, rows: number, allowance: number): Promise<ExportReservation> {
    if (rows <= 0) {
      const before = await this.used(subject);
      return { granted: before.rows < allowance, before, reserved: 0, windowEndsAt: 0 };
    }
    const counted = await this.store.penalty(subject, rows);
    const before = { rows: counted.consumedPoints - rows, resetMs: counted.msBeforeNext };
    const windowEndsAt = Date.now() + counted.msBeforeNext;
    if (before.rows < allowance) return { granted: true, before, reserved: rows, windowEndsAt };
    await this.adjust(subject, -rows);
    return { granted: false, before, reserved: 0, windowEndsAt };
  }

  /**
   * Counts what an export sent instead of what it reserved (fewer when the client left early,
   * more when rows arrived meanwhile). Rows are given back only within the window they were
   * counted in. A failure is logged: the rows were sent, there is nothing to refuse.
   */
  async settle(subject: string, reservation: ExportReservation, sent: number): Promise<void> {
    const difference = sent - reservation.reserved;
    if (difference === 0 || (difference < 0 && Date.now() >= reservation.windowEndsAt)) return;
    await this.adjust(subject, difference);
  }

  private async adjust(subject: string, rows: number): Promise<void> {
    try {
      if (rows > 0) await this.store.penalty(subject, rows);
      else await this.store.reward(subject, -rows);
    } catch (error) {
      this.logger.warn({ err: error, rows }, "could not count exported CSV rows toward the daily allowance");
    }
  }
}
