/** When and how long to wait before asking a feed again. Pure, so the arithmetic is tested alone. */

/** Longest backoff we choose ourselves. */
export const MAX_BACKOFF_MS = 30_000;
/** Longest Retry-After we honour; a server asking for more gets no retry rather than an early one. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Timeouts, rate limits and server errors may pass; other 4xx answers will not change. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === "") return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Wait before retry number `retry` (1 for the first): the server's Retry-After when it sent one,
 * else exponential backoff with ±25 % jitter (so clients that failed together do not return
 * together). Null means do not retry: the server asked us to stay away longer than we wait.
 */
export function retryDelayMs(
  retry: number,
  baseDelayMs: number,
  retryAfter: string | null,
  now: number = Date.now(),
  random: () => number = Math.random,
): number | null {
  const asked = parseRetryAfter(retryAfter, now);
  if (asked !== null) return asked > MAX_RETRY_AFTER_MS ? null : asked;
  const exponential = baseDelayMs * 2 ** Math.max(0, retry - 1);
  return Math.min(exponential * (0.75 + random() * 0.5), MAX_BACKOFF_MS);
}
