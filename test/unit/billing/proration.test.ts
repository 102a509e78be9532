import { describe, expect, it } from "vitest";
import { proratedUpgradeUnits } from "../../../src/billing/proration";

const start = new Date("2026-11-01T00:00:00.000Z");
const end = new Date("2026-12-01T00:00:00.000Z"); // 30 days: 2,592,000,000 ms
const at = (iso: string) => new Date(iso);
const prorate = (current: bigint, target: bigint, when: Date, periodEnd = end) =>
  proratedUpgradeUnits({
    currentPriceUnits: current,
    targetPriceUnits: target,
    periodStart: start,
    periodEnd,
    at: when,
  });

describe("the prorated price of an upgrade", () => {
  it("when a third of the period is left, then it is a third of the difference, to the micro-USDC", () => {
    // 80 USDC × 10 days / 30 days = 26.666666…6 → 26.666667 (half up).
    expect(prorate(19_000_000n, 99_000_000n, at("2026-11-21T00:00:00.000Z"))).toBe(26_666_667n);
    // 3 USDC × 1/3 = exactly 1 USDC.
    expect(prorate(1_000_000n, 4_000_000n, at("2026-11-21T00:00:00.000Z"))).toBe(1_000_000n);
  });

  it("when the exact value ends in a half micro-USDC, then it rounds up; just below a half, down", () => {
    // 1 unit × half the period = 0.5 → 1; 1 unit × (half − 1 ms) < 0.5 → 0.
    expect(prorate(0n, 1n, at("2026-11-16T00:00:00.000Z"))).toBe(1n);
    expect(prorate(0n, 1n, at("2026-11-16T00:00:00.001Z"))).toBe(0n);
    // 3 units × 1/2 = 1.5 → 2; 5 units × 1/2 = 2.5 → 3.
    expect(prorate(0n, 3n, at("2026-11-16T00:00:00.000Z"))).toBe(2n);
    expect(prorate(0n, 5n, at("2026-11-16T00:00:00.000Z"))).toBe(3n);
  });

  it("when milliseconds are left, then they count (the precision timestamps are stored with)", () => {
    // 2,592,000 units over 2,592,000,000 ms is 1 unit per 1,000 ms: 1,500 ms left → 1.5 → 2.
    expect(prorate(0n, 2_592_000n, new Date(end.getTime() - 1_500))).toBe(2n);
    expect(prorate(0n, 2_592_000n, new Date(end.getTime() - 1_499))).toBe(1n);
  });

  it("when the change is at the period start, then it is the whole difference; at or after the end, nothing", () => {
    expect(prorate(19_000_000n, 99_000_000n, start)).toBe(80_000_000n);
    expect(prorate(19_000_000n, 99_000_000n, new Date(start.getTime() - 60_000))).toBe(80_000_000n);
    expect(prorate(19_000_000n, 99_000_000n, end)).toBe(0n);
    expect(prorate(19_000_000n, 99_000_000n, at("2026-12-02T00:00:00.000Z"))).toBe(0n);
  });

  it("when the plan is no dearer, then there is nothing to invoice", () => {
    expect(prorate(99_000_000n, 19_000_000n, at("2026-11-10T00:00:00.000Z"))).toBe(0n);
    expect(prorate(19_000_000n, 19_000_000n, at("2026-11-10T00:00:00.000Z"))).toBe(0n);
  });

  it("when amounts are far beyond a float's exact range, then the result is still exact", () => {
    // (2^60 units) × 1/3 of the period = 384307168202282325.33… → …325.
    expect(prorate(0n, 2n ** 60n, at("2026-11-21T00:00:00.000Z"))).toBe(384_307_168_202_282_325n);
  });
});
