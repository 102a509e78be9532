import { describe, expect, it } from "vitest";
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from "../../../src/sources/bazaar/retry-policy";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const MIDDLE = () => 0.5; // no jitter

describe("retry policy", () => {
  it.each([
    [429, true],
    [503, true],
    [500, true],
    [408, true],
    [404, false],
    [400, false],
    [403, false],
  ])("when a page answers %i, then retrying is %s", (status, retry) => {
    expect(isRetryableStatus(status)).toBe(retry);
  });

  it("when no Retry-After is sent, then waits double each time, within ±25 % jitter and capped at 30 s", () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 1000, null, NOW, MIDDLE))).toEqual([1000, 2000, 4000]);
    expect(retryDelayMs(1, 1000, null, NOW, () => 0)).toBe(750);
    expect(retryDelayMs(1, 1000, null, NOW, () => 1)).toBe(1250);
    expect(retryDelayMs(10, 1000, null, NOW, MIDDLE)).toBe(30_000);
  });

  it("when Retry-After gives seconds or a date, then that wait is used", () => {
    expect(retryDelayMs(1, 1000, "7", NOW, MIDDLE)).toBe(7000);
    expect(retryDelayMs(1, 1000, "Sat, 21 Nov 2026 12:00:20 GMT", NOW, MIDDLE)).toBe(20_000);
  });

  it("when Retry-After asks for longer than we wait, then there is no retry rather than an early one", () => {
    expect(retryDelayMs(1, 1000, "600", NOW, MIDDLE)).toBeNull();
  });

  it("when Retry-After is unreadable or in the past, then backoff or no wait applies", () => {
    expect(parseRetryAfter("soon", NOW)).toBeNull();
    expect(retryDelayMs(1, 1000, "soon", NOW, MIDDLE)).toBe(1000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 11:00:00 GMT", NOW)).toBe(0);
  });
});
