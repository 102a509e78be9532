import { drift, type PaymentDrift, type PaymentOption, parsePaymentChallenge } from "../payments";
import type { CallDescription } from "../payments/call-description";
import { type ChallengeTraits, readChallengeTraits } from "../payments/challenge-traits";
import { challengeChecks } from "../trust/checks/challenge";
import type { Check } from "../trust/types";
import { type GuardedRequestDeps, guardedRequest } from "./guarded-request";
import type { HopResponse } from "./http-hop";

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
  /** The checks this answer decides on its own (src/trust/checks/challenge.ts). */
  checks: Check[];
  /** What the challenge says about itself: auth only, idempotent, the seller's self-reported name, tags, icon. */
  traits: ChallengeTraits;
}

export interface ProbeTarget {
  method: string;
  url: string;
}

export type ProbeDeps = GuardedRequestDeps;

const HTTP_METHODS = new Set(["GET", "HEAD", "DELETE", "OPTIONS", "POST", "PUT", "PATCH"]);

/** The listed method, or GET when the listing names something that is not an HTTP method. */
function requestMethod(listed: string, warnings: string[]): string {
  const method = listed.trim().toUpperCase();
  if (HTTP_METHODS.has(method)) return method;
  warnings.push(`listed method ${JSON.stringify(listed)} is not an HTTP method; probed with GET`);
  return "GET";
}

function answered(response: HopResponse, base: Omit<ProbeResult, "outcome" | "statusCode">): ProbeResult {
  const { status } = response;
  const input = { status, headers: response.headers, bodyText: response.bodyText };
  const challenge = parsePaymentChallenge(input);
  const warnings = [...base.warnings, ...challenge.warnings];
  const checks = challengeChecks(input);
  const { traits } = challenge;
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
      checks,
      traits,
    };
  }
  const isError = status >= 400 && status !== 402;
  return {
    ...base,
    outcome: isError ? "http_error" : "no_challenge",
    statusCode: status,
    warnings,
    error: isError ? `HTTP ${status}` : challenge.error,
    checks,
    traits,
  };
}

/** What a result holds before an answer is read: no challenge, and the checks of no answer. */
export function blankResult(
  latencyMs: number | null,
  warnings: string[],
  redirects = 0,
): Omit<ProbeResult, "outcome" | "statusCode"> {
  return {
    latencyMs,
    challengeValid: false,
    x402Version: null,
    options: [],
    call: null,
    warnings,
    error: null,
    redirects,
    checks: challengeChecks(null),
    traits: readChallengeTraits(null),
  };
}

/**
 * One unpaid request to an endpoint, as its listing describes it (guardedRequest: redirects
 * re-vetted by the SSRF guard). Never throws: every failure is an outcome. The time limit covers
 * the whole probe, redirects and reading included.
 */
export async function probeEndpoint(endpoint: ProbeTarget, deps: ProbeDeps): Promise<ProbeResult> {
  const warnings: string[] = [];
  const method = requestMethod(endpoint.method, warnings);
  const started = performance.now();
  const answer = await guardedRequest({ url: endpoint.url, method }, deps);
  const sent = answer.kind === "answer" || answer.sent;
  const base = blankResult(sent ? performance.now() - started : null, warnings, answer.redirects);
  if (answer.kind === "answer") {
    if (answer.response.truncated) {
      warnings.push(`answer longer than ${deps.settings.maxResponseBytes} bytes; only that much was read`);
    }
    return answered(answer.response, base);
  }
  const outcome = answer.kind === "too_many_redirects" ? "http_error" : answer.kind;
  return { ...base, outcome, statusCode: answer.lastStatus, error: answer.reason };
}

/**
 * Differences between what the listings claim and what the live challenge offers; null when
 * there is nothing to compare (no challenge, or no listing states any payment option).
 */
export function listingDrift(listing: PaymentOption[], result: ProbeResult): PaymentDrift[] | null {
  if (result.outcome !== "challenge" || result.options.length === 0 || listing.length === 0) return null;
  return drift(listing, result.options);
}
