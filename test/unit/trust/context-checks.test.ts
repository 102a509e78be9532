import { describe, expect, it } from "vitest";
import { contextChecks, type TrustContext } from "../../../src/trust/checks/context";

const NOW = new Date("2026-11-28T12:00:00Z");
const context = (overrides: Partial<TrustContext> = {}): TrustContext => ({
  url: "https://seller.example/a",
  drift: [],
  probes7d: { probes: 100, uptime: 1, p99Ms: 400 },
  prices: { live: "0.01", listed: "0.01", categoryMedian: "0.02" },
  payToSince: new Date("2026-09-01T00:00:00Z"),
  payToSharedWith: 0,
  now: NOW,
  ...overrides,
});
const result = (c: TrustContext, id: string) => contextChecks(c).find((x) => x.id === id)?.result;

describe("contextChecks", () => {
  it("when everything is in order, then every context check passes", () => {
    expect(contextChecks(context()).map((c) => c.result)).toEqual([
      "pass",
      "pass",
      "pass",
      "pass",
      "pass",
      "pass",
    ]);
  });

  it("when the live price is 100× the listing (a decoy listing), then price_sane fails", () => {
    expect(
      result(context({ prices: { live: "1", listed: "0.01", categoryMedian: null } }), "price_sane"),
    ).toBe("fail");
    expect(
      result(context({ prices: { live: "0.99", listed: "0.01", categoryMedian: null } }), "price_sane"),
    ).toBe("pass");
  });

  it("when the live price is 100× the category median or over the cap, then price_sane fails", () => {
    expect(
      result(context({ prices: { live: "2", listed: null, categoryMedian: "0.02" } }), "price_sane"),
    ).toBe("fail");
    expect(
      result(context({ prices: { live: "150", listed: "150", categoryMedian: null } }), "price_sane"),
    ).toBe("fail");
  });

  it("when the pay_to is 10 days old, then stable_terms warns", () => {
    expect(result(context({ payToSince: new Date("2026-11-18T12:00:00Z") }), "stable_terms")).toBe("warn");
  });

  it("when the pay_to is shared with many origins, then pay_to_exclusive fails; a few, it warns", () => {
    expect(result(context({ payToSharedWith: 144 }), "pay_to_exclusive")).toBe("fail");
    expect(result(context({ payToSharedWith: 2 }), "pay_to_exclusive")).toBe("warn");
  });

  it("when served over http or drifting from the listing, then those fail", () => {
    expect(result(context({ url: "http://seller.example/a" }), "https")).toBe("fail");
    const drift = [
      {
        kind: "price" as const,
        network: "eip155:8453",
        claimed: "0.01",
        observed: "0.05",
        message: "price differs",
      },
    ];
    expect(result(context({ drift }), "matches_listing")).toBe("fail");
  });

  it("when up half the time, then responsive fails; up 95%, it warns", () => {
    expect(result(context({ probes7d: { probes: 10, uptime: 0.4, p99Ms: 100 } }), "responsive")).toBe("fail");
    expect(result(context({ probes7d: { probes: 10, uptime: 0.95, p99Ms: 100 } }), "responsive")).toBe(
      "warn",
    );
  });
});
