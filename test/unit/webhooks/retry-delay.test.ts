import { describe, expect, it } from "vitest";
import { retryDelayMs, type WebhookSettings } from "../../../src/webhooks/settings";

const settings = { firstRetryDelayMs: 30_000, maxRetryDelayMs: 6 * 3_600_000 } as WebhookSettings;

describe("retryDelayMs", () => {
  it("when attempts fail, then the ceiling doubles from 30 s up to 6 h and the delay lies in its upper half", () => {
    expect(retryDelayMs(settings, 1, 0)).toBe(15_000);
    expect(retryDelayMs(settings, 1, 1)).toBe(30_000);
    expect(retryDelayMs(settings, 4, 1)).toBe(240_000);
    expect(retryDelayMs(settings, 30, 0)).toBe(3 * 3_600_000);
    expect(retryDelayMs(settings, 30, 1)).toBe(6 * 3_600_000);
  });

  it("when the delays of the 3-day window are summed at their shortest, then about 20 attempts fit", () => {
    let total = 0;
    let attempts = 0;
    while (total < 3 * 86_400_000) total += retryDelayMs(settings, ++attempts, 0);
    expect(attempts).toBeGreaterThan(15);
    expect(attempts).toBeLessThan(40);
  });
});
