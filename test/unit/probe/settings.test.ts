import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config";
import { probeSettingsFromConfig } from "../../../src/probe/settings";

describe("probe settings from the environment", () => {
  it("when nothing is set, then probing is on and polite by default, with no private network reachable", () => {
    expect(probeSettingsFromConfig(loadConfig({}))).toEqual({
      enabled: true,
      schedule: "30 * * * *",
      concurrency: 8,
      perHostPerMinute: 60,
      timeoutMs: 10_000,
      maxResponseBytes: 262_144,
      maxRedirects: 3,
      allowedNetworks: [],
      userAgent: "x402-catalogue/0.1 (x402 endpoint probe)",
      pollingIntervalSeconds: 2,
      trust: {
        downProbes: 3,
        downAfterMs: 3_600_000,
        deadAfterMs: 604_800_000,
        zombieAfterMs: 86_400_000,
        slowP99Ms: 5_000,
        serviceBatch: 100,
      },
    });
  });

  it("when allowed networks are listed, then they are read as CIDR ranges of either family", () => {
    const config = loadConfig({ PROBE_ALLOWED_NETWORKS: " 127.0.0.0/8, ::1/128 ,", PROBE_ENABLED: "false" });
    expect(probeSettingsFromConfig(config)).toMatchObject({
      allowedNetworks: ["127.0.0.0/8", "::1/128"],
      enabled: false,
    });
  });

  it.each([
    [
      "PROBE_ALLOWED_NETWORKS",
      "127.0.0.1",
      /PROBE_ALLOWED_NETWORKS="127.0.0.1": must be comma-separated CIDR ranges/,
    ],
    ["PROBE_SCHEDULE", "hourly", /PROBE_SCHEDULE="hourly": must be a five-field cron expression/],
    ["PROBE_CONCURRENCY", "0", /PROBE_CONCURRENCY="0": must be between 1 and 500/],
    ["PROBE_TIMEOUT_MS", "999999", /PROBE_TIMEOUT_MS="999999": must be between 1 and 120000/],
  ])("when %s=%s, then start-up fails naming the variable", (name, value, message) => {
    try {
      loadConfig({ [name]: value });
      expect.unreachable("the configuration should be rejected");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(message)]);
    }
  });
});
