import { loadConfig } from "../../src/config/config";
import type { Database } from "../../src/db/prisma-client";
import { readChallengeTraits } from "../../src/payments/challenge-traits";
import type { ProbeDeps, ProbeResult } from "../../src/probe/probe-endpoint";
import { HostRateLimiter } from "../../src/probe/rate-limit";
import { type HostResolver, systemResolver } from "../../src/probe/resolve-target";
import type { ProbeSettings } from "../../src/probe/settings";
import { AddressPolicy } from "../../src/probe/ssrf-guard";
import { handleProbeJob, type ProbeWorkerDeps } from "../../src/probe/worker";
import { trustSettingsFromConfig } from "../../src/trust/refresh";
import { probeOption } from "../unit/payments/fixtures";
import { testLogger } from "./logger";

export const TEST_USER_AGENT = "x402-catalogue-test/1.0 (probe)";

/**
 * Fast settings for fixture endpoints. Only 127.0.0.1 is reachable: fixtures listen there, while
 * 127.0.0.2 (and every private range) stays refused, so a refused redirect can be proven unsent.
 */
export function testProbeSettings(overrides: Partial<ProbeSettings> = {}): ProbeSettings {
  return {
    enabled: true,
    // Never fires during a test run (1 January, 00:00 UTC); tests ask for sweeps themselves.
    schedule: "0 0 1 1 *",
    concurrency: 4,
    perHostPerMinute: 1_000_000,
    timeoutMs: 2_000,
    maxResponseBytes: 64 * 1024,
    maxRedirects: 3,
    allowedNetworks: ["127.0.0.1/32"],
    userAgent: TEST_USER_AGENT,
    pollingIntervalSeconds: 0.5,
    trust: trustSettingsFromConfig(loadConfig({})),
    ...overrides,
  };
}

/** Made-up names (*.fixture.test) resolve to chosen addresses; everything else as usual. */
export function fixtureResolver(names: Record<string, string>): HostResolver {
  return async (hostname) => {
    const address = names[hostname];
    if (address === undefined) return systemResolver(hostname);
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  };
}

export function testProbeDeps(
  overrides: Partial<ProbeSettings> = {},
  names: Record<string, string> = {},
): ProbeDeps {
  const settings = testProbeSettings(overrides);
  return { settings, policy: new AddressPolicy(settings.allowedNetworks), resolve: fixtureResolver(names) };
}

/** What a probe worker needs, on a test database, with fixture-friendly settings and no rate limit. */
export function testWorkerDeps(db: Database): ProbeWorkerDeps {
  return {
    db,
    probe: testProbeDeps(),
    limiter: new HostRateLimiter(1_000_000),
    logger: testLogger,
    signal: new AbortController().signal,
    counts: { probed: 0, skipped: 0 },
  };
}

/** Probes these endpoints one after another as a worker's job would, recording every result. */
export async function probeNow(db: Database, endpointIds: string[]): Promise<void> {
  const deps = testWorkerDeps(db);
  for (const endpointId of endpointIds) {
    await handleProbeJob(deps, { endpointId, enqueuedAt: new Date().toISOString() });
  }
}

/** A probe that got a valid challenge with one option (probeOption). */
export function probeResult(overrides: Partial<ProbeResult> = {}): ProbeResult {
  return {
    outcome: "challenge",
    statusCode: 402,
    latencyMs: 42.5,
    challengeValid: true,
    x402Version: 1,
    options: [probeOption()],
    call: null,
    warnings: [],
    error: null,
    redirects: 0,
    checks: [],
    traits: readChallengeTraits(null),
    ...overrides,
  };
}
