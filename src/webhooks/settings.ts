import type { Config } from "../config/config";
import type { HostResolver } from "../probe/resolve-target";

export interface WebhookSettings {
  /** Whether this process delivers (WEBHOOK_DELIVERY_ENABLED); every process emits events. */
  deliver: boolean;
  allowedNetworks: string[];
  eventRetentionDays: number;
  /** Deliveries in flight per process. */
  concurrency: number;
  pollMs: number;
  /** A 2xx within this time is a success. */
  timeoutMs: number;
  /** Retries stop (delivery failed) and an endpoint failing this long is disabled: 3 days. */
  retryWindowMs: number;
  /** First retry delay; doubled per attempt up to maxRetryDelayMs, then jittered. */
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  userAgent: string;
  resolve?: HostResolver;
}

/**
 * Deliveries in flight per process; a receiver may see this many connections from one process.
 * A slot is held from the claim until the outcome committed, so it spends most of its time
 * waiting on the receiver and the database, not on CPU. With 8, one worker delivered 434–485
 * events/s to one loopback receiver; with 32, 879 (batched settling, a new connection per
 * attempt, load 7–10 on 2 cores). With keep-alive, 64 against 32 alternated: bursts of 629 and
 * 473 against 377 and 391 delivered/s, with less worker and Postgres CPU per delivery (larger
 * claims and outcome batches), load 8–19 (bench/events.ts 5000 1000 2).
 */
export const DELIVERY_CONCURRENCY = 64;

export function webhookSettingsFromConfig(config: Config): WebhookSettings {
  return {
    deliver: config.WEBHOOK_DELIVERY_ENABLED,
    allowedNetworks: config.WEBHOOK_ALLOWED_NETWORKS,
    eventRetentionDays: config.EVENT_RETENTION_DAYS,
    concurrency: DELIVERY_CONCURRENCY,
    pollMs: 1_000,
    timeoutMs: 10_000,
    retryWindowMs: 3 * 86_400_000,
    firstRetryDelayMs: 30_000,
    maxRetryDelayMs: 6 * 3_600_000,
    userAgent: "x402-catalogue-webhooks/0.1",
  };
}

/**
 * Exponential backoff with jitter: the nth retry waits between half and all of
 * min(first · 2^(n-1), max), so endpoints that failed together do not retry together. With the
 * defaults about 20 attempts fit in the 3-day window.
 */
export function retryDelayMs(settings: WebhookSettings, attempt: number, random = Math.random()): number {
  const ceiling = Math.min(
    settings.firstRetryDelayMs * 2 ** Math.max(0, attempt - 1),
    settings.maxRetryDelayMs,
  );
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
