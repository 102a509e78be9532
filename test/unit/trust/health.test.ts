import { describe, expect, it } from "vitest";
import { endpointHealth, type HealthFacts, serviceHealth } from "../../../src/trust/health";
import { warningsOf } from "../../../src/trust/warnings";

const NOW = new Date("2026-11-28T12:00:00Z");
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const SETTINGS = {
  downProbes: 3,
  downAfterMs: 60 * 60_000,
  deadAfterMs: 7 * 24 * 60 * 60_000,
  slowP99Ms: 5_000,
};
const facts = (overrides: Partial<HealthFacts> = {}): HealthFacts => ({
  probes: 10,
  latestAt: ago(1),
  failingRun: null,
  last24h: { probes: 10, failures: 0, p99Ms: 300 },
  ...overrides,
});

describe("endpointHealth", () => {
  it("when never probed, then unknown", () => {
    expect(endpointHealth(facts({ probes: 0, latestAt: null }), SETTINGS, NOW).health).toBe("unknown");
  });

  it("when valid and clean for 24 h, then live; with failures or a slow p99, degraded", () => {
    expect(endpointHealth(facts(), SETTINGS, NOW).health).toBe("live");
    expect(
      endpointHealth(facts({ last24h: { probes: 10, failures: 2, p99Ms: 300 } }), SETTINGS, NOW).health,
    ).toBe("degraded");
    expect(
      endpointHealth(facts({ last24h: { probes: 10, failures: 0, p99Ms: 9_000 } }), SETTINGS, NOW).health,
    ).toBe("degraded");
  });

  it("when three failures span less than the down time, then degraded, not down", () => {
    const run = { count: 3, since: ago(30) };
    expect(endpointHealth(facts({ failingRun: run }), SETTINGS, NOW).health).toBe("degraded");
  });

  it("when three failures span an hour, then down; two failures over a day are not enough", () => {
    expect(endpointHealth(facts({ failingRun: { count: 3, since: ago(61) } }), SETTINGS, NOW).health).toBe(
      "down",
    );
    expect(
      endpointHealth(facts({ failingRun: { count: 2, since: ago(24 * 60) } }), SETTINGS, NOW).health,
    ).toBe("degraded");
  });

  it("when down for the dead time, then dead", () => {
    const since = ago(8 * 24 * 60);
    expect(endpointHealth(facts({ failingRun: { count: 50, since } }), SETTINGS, NOW).health).toBe("dead");
  });
});

describe("serviceHealth", () => {
  it("follows the documented rule", () => {
    expect(serviceHealth([]).health).toBe("unknown");
    expect(serviceHealth(["live", "unknown"]).health).toBe("live");
    expect(serviceHealth(["live", "down"]).health).toBe("degraded");
    expect(serviceHealth(["down", "dead"]).health).toBe("down");
    expect(serviceHealth(["dead", "dead"]).health).toBe("dead");
  });
});

describe("warningsOf", () => {
  const base = {
    health: "live" as const,
    checks: [],
    zombieSince: null,
    livePayable: true,
    authOnly: false,
    slowP99: false,
    serviceFirstSeenAt: ago(30 * 24 * 60),
    payToChangedAt: null,
    zombieAfterMs: 24 * 60 * 60_000,
    now: NOW,
  };

  it("when zombie answers last longer than the zombie time, then zombie; shorter, not yet", () => {
    expect(warningsOf({ ...base, zombieSince: ago(25 * 60) })).toEqual(["zombie"]);
    expect(warningsOf({ ...base, zombieSince: ago(60) })).toEqual([]);
  });

  it("when the 402 only asks for a sign-in, then auth_only and never unpayable", () => {
    expect(warningsOf({ ...base, livePayable: false, authOnly: true })).toEqual(["auth_only"]);
    expect(warningsOf({ ...base, livePayable: false })).toEqual(["unpayable"]);
  });

  it("when the provider is new and its pay_to just changed, then both say so", () => {
    expect(warningsOf({ ...base, serviceFirstSeenAt: ago(60), payToChangedAt: ago(60) })).toEqual([
      "new_provider",
      "pay_to_changed",
    ]);
  });
});
