import { duration, positiveInt } from "./setting-schemas";

/** Trust verdicts (src/trust): health lifecycle thresholds, as durations (90s, 45m, 1h, 7d); read with the rest in config.ts. */
export const trustSettings = {
  HEALTH_DOWN_PROBES: {
    schema: positiveInt(1000).default(3),
    description: "An endpoint is down when at least this many latest probes in a row got no valid challenge…",
  },
  HEALTH_DOWN_AFTER: {
    schema: duration.prefault("1h"),
    description: "…and those probes span at least this long (duration: 90s, 45m, 1h, 7d).",
  },
  HEALTH_DEAD_AFTER: {
    schema: duration.prefault("7d"),
    description: "An endpoint down continuously this long is dead; dead endpoints are probed once a day.",
  },
  HEALTH_ZOMBIE_AFTER: {
    schema: duration.prefault("24h"),
    description:
      "A listed paid endpoint answering 404/405/410, or 2xx without a challenge, this long gets the zombie warning.",
  },
  HEALTH_SLOW_P99: {
    schema: duration.prefault("5s"),
    description:
      "A live endpoint whose p99 latency over the last 24 h exceeds this is degraded (and warned slow).",
  },
} as const;
