import { drift, type PaymentDrift, type PaymentOption, parsePaymentChallenge } from "../payments";
import type { CallDescription } from "../payments/call-description";
import { type HopResponse, sendHop } from "./http-hop";
import { type HostResolver, type VettedTarget, vetTarget } from "./resolve-target";
import type { ProbeSettings } from "./settings";
import type { AddressPolicy } from "./ssrf-guard";

/**
 * challenge: a 402 carrying an x402 payload (valid or not, see challengeValid);
 * no_challenge: an answer below 400, or a 402 without any x402 payload (an HTML paywall);
 * http_error: any other status from 400 up (and too many redirects);
 * network_error: DNS, connect, TLS, reset or time limit; refused: the SSRF guard said no.
 */
export type ProbeOutcome = "challenge" | "no_challenge" | "http_error" | "network_error" | "refused";

export interface ProbeResult {
  outcome: ProbeOutcome;
  /**
   * Status of the answer; for a refused redirect, the redirect's status (the endpoint did answer).
   * Null when nothing complete came back (network_error) or nothing was sent.
   */
  statusCode: number | null;
  /** From the first DNS lookup to the end of the answer we read; null when nothing was sent. */
  latencyMs: number | null;
  challengeValid: boolean;
  x402Version: number | null;
  options: PaymentOption[];
  /** How to call the endpoint, as its challenge describes it. */
  call: CallDescription | null;
  warnings: string[];
  error: string | null;
  redirects: number;
}

export interface ProbeTarget {
  method: string;
  url: string;
}

export interface ProbeDeps {
  settings: Pick<ProbeSettings, "timeoutMs" | "maxResponseBytes" | "maxRedirects" | "userAgent">;
  policy: AddressPolicy;
  resolve: HostResolver;
}

const WITHOUT_BODY = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);
const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const EMPTY_JSON = "{}";

/** The listed method, or GET when the listing names something that is not an HTTP method. */
function requestMethod(listed: string, warnings: string[]): string {
  const method = listed.trim().toUpperCase();
  if (WITHOUT_BODY.has(method) || WITH_BODY.has(method)) return method;
  warnings.push(`listed method ${JSON.stringify(listed)} is not an HTTP method; probed with GET`);
  return "GET";
}

/** What a browser does: 303 always, and 301/302 after a POST, continue as GET without a body. */
function methodAfterRedirect(status: number, method: string): string {
  if (status === 303 && method !== "HEAD") return "GET";
  if ((status === 301 || status === 302) && method === "POST") return "GET";
  return method;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function answered(response: HopResponse, base: Omit<ProbeResult, "outcome" | "statusCode">): ProbeResult {
  const { status } = response;
  const challenge = parsePaymentChallenge({ status, headers: response.headers, bodyText: response.bodyText });
  const warnings = [...base.warnings, ...challenge.warnings];
  const hasPayload = challenge.x402Version !== null || challenge.options.length > 0;
  if (status === 402 && hasPayload) {
    return {
      ...base,
      outcome: "challenge",
      statusCode: status,
      challengeValid: challenge.valid,
      x402Version: challenge.x402Version,
      options: challenge.options,
      call: challenge.call,
      warnings,
      error: challenge.error,
    };
  }
  const isError = status >= 400 && status !== 402;
  return {
    ...base,
    outcome: isError ? "http_error" : "no_challenge",
    statusCode: status,
    warnings,
    error: isError ? `HTTP ${status}` : challenge.error,
  };
}

/**
 * One unpaid request to an endpoint, as its listing describes it, following at most
 * maxRedirects redirects, each re-vetted by the SSRF guard. Never throws: every failure is an
 * outcome. The time limit covers the whole probe, redirects and reading included.
 */
export async function probeEndpoint(endpoint: ProbeTarget, deps: ProbeDeps): Promise<ProbeResult> {
  const { settings } = deps;
  const warnings: string[] = [];
  let method = requestMethod(endpoint.method, warnings);
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const started = performance.now();
  let sentAny = false;
  let lastStatus: number | null = null;
  let redirects = 0;
  const base = () => ({
    latencyMs: sentAny ? performance.now() - started : null,
    challengeValid: false,
    x402Version: null,
    options: [],
    call: null,
    warnings,
    error: null,
    redirects,
  });
  let next: { raw: string; base?: URL } = { raw: endpoint.url };
  try {
    for (;;) {
      const check = await abortable(vetTarget(next.raw, next.base, deps.policy, deps.resolve), deadline);
      if (!check.ok) {
        const where = redirects === 0 ? "" : ` (redirect ${redirects})`;
        return {
          ...base(),
          outcome: check.outcome,
          statusCode: lastStatus,
          error: `${check.reason}${where}`,
        };
      }
      const target: VettedTarget = check.target;
      sentAny = true;
      const response = await sendHop({
        target,
        method,
        jsonBody: WITH_BODY.has(method) ? EMPTY_JSON : null,
        userAgent: settings.userAgent,
        maxBytes: settings.maxResponseBytes,
        signal: deadline,
      });
      lastStatus = response.status;
      if (response.truncated) {
        warnings.push(`answer longer than ${settings.maxResponseBytes} bytes; only that much was read`);
      }
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || location === undefined) return answered(response, base());
      if (redirects >= settings.maxRedirects) {
        return {
          ...base(),
          outcome: "http_error",
          statusCode: response.status,
          error: `more than ${settings.maxRedirects} redirects`,
        };
      }
      redirects += 1;
      method = methodAfterRedirect(response.status, method);
      next = { raw: location, base: target.url };
    }
  } catch (error) {
    const reason = deadline.aborted ? `no complete answer within ${settings.timeoutMs} ms` : message(error);
    return { ...base(), outcome: "network_error", statusCode: null, error: reason };
  }
}

/**
 * Differences between what the listings claim and what the live challenge offers; null when
 * there is nothing to compare (no challenge, or no listing states any payment option).
 */
export function listingDrift(listing: PaymentOption[], result: ProbeResult): PaymentDrift[] | null {
  if (result.outcome !== "challenge" || result.options.length === 0 || listing.length === 0) return null;
  return drift(listing, result.options);
}
