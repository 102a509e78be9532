import type { Config } from "../config/config";
import type { Listener } from "../db/notifications";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";
import { ExportAllowance } from "./export-allowance";
import { ExportSlots } from "./export-slots";
import { KeyCache } from "./key-cache";
import { KeyVerifier } from "./key-verifier";
import { SharedRateLimiter } from "./shared-rate-limiter";
import { UsageRecorder } from "./usage";

export interface AccountSettings {
  /** Requests per minute from one client address without a key (RATE_LIMIT_ANONYMOUS_PER_MINUTE). */
  anonymousRequestsPerMinute: number;
  /** CSV rows a day from one client address without a key (RATE_LIMIT_ANONYMOUS_CSV_ROWS_PER_DAY). */
  anonymousCsvRowsPerDay: number;
  /** How often counted usage is written to Postgres (USAGE_FLUSH_SECONDS, in ms). */
  usageFlushMs: number;
  /** CSV exports one caller may stream at once from one process (EXPORT_CONCURRENCY_PER_CALLER). */
  exportsPerCaller: number;
  /** CSV exports one process streams at once (EXPORT_CONCURRENCY_PER_PROCESS). */
  exportsPerProcess: number;
}

export function accountSettingsFromConfig(config: Config): AccountSettings {
  return {
    anonymousRequestsPerMinute: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    anonymousCsvRowsPerDay: config.RATE_LIMIT_ANONYMOUS_CSV_ROWS_PER_DAY,
    usageFlushMs: config.USAGE_FLUSH_SECONDS * 1000,
    exportsPerCaller: config.EXPORT_CONCURRENCY_PER_CALLER,
    exportsPerProcess: config.EXPORT_CONCURRENCY_PER_PROCESS,
  };
}

export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = {
  anonymousRequestsPerMinute: 120,
  anonymousCsvRowsPerDay: 10_000,
  usageFlushMs: 10_000,
  exportsPerCaller: 2,
  exportsPerProcess: 8,
};

/**
 * The per-process parts of the accounts layer an API process needs on every request: key
 * lookups, the shared rate limiter, the daily CSV allowance, the export slots and the usage counter. `close` writes the last usage.
 * Given the API key change notifications (API_KEYS_CHANGED_CHANNEL), verified keys are kept in
 * memory; without them every keyed request is looked up in Postgres.
 */
export class Accounts {
  readonly keys: KeyVerifier;
  readonly limiter: SharedRateLimiter;
  readonly exports: ExportAllowance;
  readonly exportSlots: ExportSlots;
  readonly usage: UsageRecorder;

  constructor(
    pool: ReadPool,
    logger: Logger,
    readonly settings: AccountSettings = DEFAULT_ACCOUNT_SETTINGS,
    keyChanges?: Listener,
  ) {
    this.keys = new KeyVerifier(pool, keyChanges && new KeyCache(pool, keyChanges, logger));
    this.limiter = new SharedRateLimiter(pool);
    this.exports = new ExportAllowance(pool, logger);
    this.exportSlots = new ExportSlots(settings.exportsPerCaller, settings.exportsPerProcess);
    this.usage = new UsageRecorder(pool, logger, settings.usageFlushMs);
  }

  async close(): Promise<void> {
    this.limiter.close();
    await this.keys.close();
    await this.usage.close();
  }
}
