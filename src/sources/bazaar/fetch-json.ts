import { setTimeout as sleep } from "node:timers/promises";
import { isRetryableStatus, retryDelayMs } from "./retry-policy";

/** How one JSON document is fetched: Node's fetch (undici) with our limits. */
export interface HttpSettings {
  maxRetries: number;
  retryBaseDelayMs: number;
  requestTimeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

export type JsonResult =
  | { ok: true; json: unknown; attempts: number }
  | { ok: false; aborted: boolean; status: number | null; message: string; attempts: number };

/** One attempt's result, before the retry decision. */
type Attempt =
  | { kind: "json"; json: unknown }
  | { kind: "retryable"; status: number | null; message: string; retryAfter: string | null }
  | { kind: "final"; status: number | null; message: string }
  | { kind: "aborted" };

class TooLargeError extends Error {}

/**
 * GETs a JSON document, retrying timeouts, network errors, 429 and 5xx with backoff (honouring
 * Retry-After). Never throws for what the network or server does: the caller gets a reason.
 * `pace` is awaited before every attempt, retries included, so they count against politeness too.
 */
export async function fetchJson(
  url: string,
  settings: HttpSettings,
  pace: (signal?: AbortSignal) => Promise<void>,
  signal?: AbortSignal,
): Promise<JsonResult> {
  for (let attempt = 1; ; attempt += 1) {
    const aborted = {
      ok: false,
      aborted: true,
      status: null,
      message: "stopped",
      attempts: attempt,
    } as const;
    try {
      await pace(signal);
    } catch {
      return aborted;
    }
    const result = await attemptOnce(url, settings, signal);
    if (result.kind === "json") return { ok: true, json: result.json, attempts: attempt };
    if (result.kind === "aborted") return aborted;
    const failure = {
      ok: false,
      aborted: false,
      status: result.status,
      message: result.message,
      attempts: attempt,
    } as const;
    if (result.kind === "final" || attempt > settings.maxRetries) return failure;
    const delay = retryDelayMs(attempt, settings.retryBaseDelayMs, result.retryAfter);
    if (delay === null)
      return { ...failure, message: `${result.message}; Retry-After is longer than we wait` };
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return aborted;
    }
  }
}

async function attemptOnce(url: string, settings: HttpSettings, signal?: AbortSignal): Promise<Attempt> {
  const timeout = AbortSignal.timeout(settings.requestTimeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const response = await fetch(url, {
      headers: { "user-agent": settings.userAgent, accept: "application/json" },
      signal: combined,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      const message = `HTTP ${response.status}`;
      return isRetryableStatus(response.status)
        ? {
            kind: "retryable",
            status: response.status,
            message,
            retryAfter: response.headers.get("retry-after"),
          }
        : { kind: "final", status: response.status, message };
    }
    const text = await readCapped(response, settings.maxBytes);
    try {
      return { kind: "json", json: JSON.parse(text) };
    } catch {
      const type = response.headers.get("content-type") ?? "none";
      return { kind: "final", status: response.status, message: `not JSON (Content-Type: ${type})` };
    }
  } catch (error) {
    if (signal?.aborted) return { kind: "aborted" };
    if (timeout.aborted) {
      return {
        kind: "retryable",
        status: null,
        message: `timed out after ${settings.requestTimeoutMs} ms`,
        retryAfter: null,
      };
    }
    if (error instanceof TooLargeError) return { kind: "final", status: null, message: error.message };
    return { kind: "retryable", status: null, message: networkMessage(error), retryAfter: null };
  }
}

/** The body as text, refused as soon as it passes the limit (announced or counted while streaming). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = (bytes: number) =>
    new TooLargeError(`response too large: ${bytes} bytes, limit ${maxBytes}`);
  const announced = Number(response.headers.get("content-length"));
  if (Number.isFinite(announced) && announced > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(announced);
  }
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(total);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** undici reports "fetch failed" and hides the reason (ECONNREFUSED, ENOTFOUND, …) in `cause`. */
function networkMessage(error: unknown): string {
  if (!(error instanceof Error)) return `network error: ${String(error)}`;
  const cause = error.cause;
  const detail =
    cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : undefined;
  return `network error: ${detail ? `${error.message} (${detail})` : error.message}`;
}
