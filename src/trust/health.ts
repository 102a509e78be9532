/**
 * Health of an endpoint from our probe history, and of a service from its endpoints.
 *
 * - unknown: never probed.
 * - live: the latest probe got a valid challenge, and the last 24 h had no failure and a p99
 *   latency within HEALTH_SLOW_P99.
 * - degraded: it answers, but the last 24 h had failures or a p99 over HEALTH_SLOW_P99; also an
 *   endpoint failing now that is not down yet.
 * - down: the last HEALTH_DOWN_PROBES probes or more got no valid challenge, and they span at
 *   least HEALTH_DOWN_AFTER.
 * - dead: down continuously for HEALTH_DEAD_AFTER (counted from when it became down).
 * A probe our SSRF guard refused says nothing about the endpoint and is not counted.
 */
export const HEALTH_STATES = ["unknown", "live", "degraded", "down", "dead"] as const;

export type Health = (typeof HEALTH_STATES)[number];

export interface HealthSettings {
  downProbes: number;
  downAfterMs: number;
  deadAfterMs: number;
  slowP99Ms: number;
}

/** What the probe history says, gathered in SQL (src/catalogue/trust-queries.ts). */
export interface HealthFacts {
  /** Probes ever counted (refusals excluded). */
  probes: number;
  latestAt: Date | null;
  /** The probes since the last valid challenge (all of them when there never was one). */
  failingRun: { count: number; since: Date } | null;
  last24h: { probes: number; failures: number; p99Ms: number | null };
}

export interface HealthVerdict {
  health: Health;
  reason: string;
}

const minutes = (ms: number): string =>
  ms >= 86_400_000
    ? `${Math.round(ms / 86_400_000)} d`
    : ms >= 3_600_000
      ? `${Math.round(ms / 3_600_000)} h`
      : `${Math.round(ms / 60_000)} min`;

export function endpointHealth(facts: HealthFacts, settings: HealthSettings, now: Date): HealthVerdict {
  if (facts.probes === 0 || facts.latestAt === null) return { health: "unknown", reason: "never probed" };
  const run = facts.failingRun;
  if (run !== null && run.count > 0) {
    const spanMs = facts.latestAt.getTime() - run.since.getTime();
    if (run.count >= settings.downProbes && spanMs >= settings.downAfterMs) {
      const downSince = run.since.getTime() + settings.downAfterMs;
      const downForMs = now.getTime() - downSince;
      const what = `${run.count} probes over ${minutes(spanMs)} got no valid challenge`;
      if (downForMs >= settings.deadAfterMs)
        return { health: "dead", reason: `${what}; down for ${minutes(downForMs)}` };
      return { health: "down", reason: what };
    }
    return { health: "degraded", reason: `failing since ${run.since.toISOString()} (${run.count} probes)` };
  }
  const { failures, p99Ms } = facts.last24h;
  if (failures > 0) return { health: "degraded", reason: `${failures} failed probes in the last 24 h` };
  if (p99Ms !== null && p99Ms > settings.slowP99Ms)
    return { health: "degraded", reason: `p99 ${Math.round(p99Ms)} ms in the last 24 h` };
  return { health: "live", reason: "valid challenges, no failures in the last 24 h" };
}

/**
 * A service from its probed endpoints (unknown ones do not count): live when all are live, dead
 * when all are dead, down when none answers (all down or dead), degraded otherwise; unknown when
 * none was probed.
 */
export function serviceHealth(endpoints: readonly Health[]): HealthVerdict {
  const known = endpoints.filter((h) => h !== "unknown");
  const count = (h: Health) => known.filter((k) => k === h).length;
  const of = (n: number) => `${n} of ${known.length} probed endpoints`;
  if (known.length === 0) return { health: "unknown", reason: "no endpoint probed" };
  if (count("live") === known.length) return { health: "live", reason: `${of(known.length)} live` };
  if (count("dead") === known.length) return { health: "dead", reason: `${of(known.length)} dead` };
  if (count("live") + count("degraded") === 0)
    return { health: "down", reason: `${of(count("down"))} down, ${count("dead")} dead` };
  return {
    health: "degraded",
    reason: `${of(count("live"))} live, ${count("degraded")} degraded, ${count("down") + count("dead")} down or dead`,
  };
}
