import type { ProbeResult } from "../probe/probe-endpoint";
import type { BazaarResource } from "../sources/bazaar/types";

/**
 * What one registered URL's probe comes to: a resource to list (a valid x402 challenge), or a
 * reason a person can read why not. Pure: the probe ran before.
 */

export interface ProbedUrl {
  method: string;
  url: string;
  result: ProbeResult;
}

/** The probe answered a valid x402 challenge: the URL may be listed with what the challenge offers. */
export function answersChallenge(result: ProbeResult): boolean {
  return result.outcome === "challenge" && result.challengeValid;
}

/**
 * A probe that says nothing about the URL this time (no answer, or a server error): what is
 * stored from it is kept rather than delisted.
 */
export function inconclusive(result: ProbeResult): boolean {
  if (result.outcome === "network_error") return true;
  return result.outcome === "http_error" && result.statusCode !== null && result.statusCode >= 500;
}

/** The live challenge as a listed resource: its options and call as the seller's server states them. */
export function resourceOfProbe({ method, url, result }: ProbedUrl): BazaarResource {
  const parsed = new URL(url);
  const { self_reported: reported } = result.traits;
  return {
    resourceUrl: parsed.href,
    origin: parsed.origin,
    host: parsed.hostname.toLowerCase(),
    method,
    description: null,
    serviceName: reported.service_name,
    iconUrl: reported.icon_url,
    tags: reported.tags,
    lastUpdated: null,
    totalCalls30d: null,
    uniquePayers30d: null,
    lastCalledAt: null,
    paymentOptions: result.options,
    call: result.call,
    warnings: result.warnings,
  };
}

/** Why a URL is not listed, from the probe's verdict and the checks that failed. */
export function refusalOfProbe({ method, url, result }: ProbedUrl): string {
  const target = `${method} ${url}`;
  const failed = result.checks
    .filter((check) => check.result === "fail")
    .map((check) => `${check.id}: ${check.reason}`);
  const checks = failed.length === 0 ? "" : ` (failed checks: ${failed.join("; ")})`;
  switch (result.outcome) {
    case "challenge":
      return `${target} answered 402 with an x402 challenge that is not valid: ${result.error ?? "unreadable"}${checks}`;
    case "no_challenge":
      return `${target} answered HTTP ${result.statusCode} without an x402 payment challenge${checks}`;
    case "http_error":
      return `${target} answered ${result.error ?? `HTTP ${result.statusCode}`}, not an x402 payment challenge${checks}`;
    case "network_error":
      return `${target} could not be reached: ${result.error ?? "no answer"}`;
    case "refused":
      return `${target} is not a public address the catalogue may call: ${result.error ?? "refused"}`;
  }
}

/** The probe's verdict as the API shows it. */
export function probeVerdictJson({ method, url, result }: ProbedUrl) {
  return {
    method,
    url,
    outcome: result.outcome,
    status_code: result.statusCode,
    challenge_valid: result.challengeValid,
    x402_version: result.x402Version,
    error: result.error,
    payment_options: result.options.length,
    checks: result.checks
      .filter((check) => check.result !== "not_applicable")
      .map(({ id, result, reason }) => ({ id, result, reason })),
  };
}
