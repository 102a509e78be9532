import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config";

describe("health settings", () => {
  it("when nothing is set, then the documented defaults hold (3 probes, 1h, 7d, 24h, 5s)", () => {
    const config = loadConfig({});
    expect([
      config.HEALTH_DOWN_PROBES,
      config.HEALTH_DOWN_AFTER,
      config.HEALTH_DEAD_AFTER,
      config.HEALTH_ZOMBIE_AFTER,
      config.HEALTH_SLOW_P99,
    ]).toEqual([3, 3_600_000, 604_800_000, 86_400_000, 5_000]);
  });

  it("when durations are written 90s, 45m, 2h, 3d, then they are read as milliseconds", () => {
    const config = loadConfig({
      HEALTH_DOWN_AFTER: "90s",
      HEALTH_DEAD_AFTER: "3d",
      HEALTH_ZOMBIE_AFTER: "45m",
      HEALTH_SLOW_P99: "2h",
    });
    expect(config.HEALTH_DOWN_AFTER).toBe(90_000);
    expect(config.HEALTH_DEAD_AFTER).toBe(259_200_000);
    expect(config.HEALTH_ZOMBIE_AFTER).toBe(2_700_000);
    expect(config.HEALTH_SLOW_P99).toBe(7_200_000);
  });

  it("when a duration has no unit, a fraction or is zero, then the start is refused naming each", () => {
    let problems: string[] = [];
    try {
      loadConfig({
        HEALTH_DOWN_AFTER: "60",
        HEALTH_DEAD_AFTER: "1.5d",
        HEALTH_ZOMBIE_AFTER: "0h",
        HEALTH_DOWN_PROBES: "0",
      });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems.map((p) => p.split("=")[0])).toEqual([
      "HEALTH_DOWN_PROBES",
      "HEALTH_DOWN_AFTER",
      "HEALTH_DEAD_AFTER",
      "HEALTH_ZOMBIE_AFTER",
    ]);
  });
});
