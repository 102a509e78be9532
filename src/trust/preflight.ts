import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { findListedEndpoint, loadProbeTarget, recordProbe } from "../catalogue/probe-writes";
import { loadConfig } from "../config/config";
import type { Database } from "../db/prisma-client";
import { listingDrift, type ProbeDeps, type ProbeResult, probeEndpoint } from "../probe/probe-endpoint";
import { systemResolver } from "../probe/resolve-target";
import { type ProbeSettings, probeSettingsFromConfig } from "../probe/settings";
import { AddressPolicy } from "../probe/ssrf-guard";
import { contextChecks } from "./checks/context";
import { gradeOf, type Verdict } from "./grade";
import { CHECK_IDS, type Check } from "./types";
import { type Warning, warningsOf } from "./warnings";

/**
 * Preflight on demand: one unpaid request now, through the same SSRF guard and probe as the
 * sweeps, judged by the same checks and grade. A catalogued endpoint's probe is recorded like a
 * sweep's. Answers are kept 60 s per method and URL, so a burst of agents costs the origin one call.
 */
export interface PreflightRequest {
  url: string;
  method: string;
}

export interface PreflightResult {
  checkedAt: Date;
  /** Served from the 60 s cache rather than probed for this request. */
  cached: boolean;
  catalogued: { endpointId: string; serviceId: string } | null;
  probe: ProbeResult;
  checks: Check[];
  verdict: Verdict;
  /** The warnings one answer can tell (unpayable, auth_only, drift); history-based ones need the catalogue. */
  warnings: Warning[];
  payable: boolean;
}

const CACHE_MS = 60_000;

/** Preflights each caller (a key, or a client address without one) may ask for per minute. */
export const PREFLIGHTS_PER_MINUTE = 10;

/** The caller asked for more than PREFLIGHTS_PER_MINUTE; it may try again after `retryAfterSeconds`. */
export class PreflightLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`at most ${PREFLIGHTS_PER_MINUTE} preflights a minute; try again in ${retryAfterSeconds} s`);
    this.name = "PreflightLimited";
  }
}
const LIVE_WARNINGS: readonly Warning[] = ["unpayable", "auth_only", "drift"];

/** Preflight with the probes' settings and SSRF guard; the defaults reach public addresses only. */
export function preflightWith(
  db: Database,
  settings: ProbeSettings = probeSettingsFromConfig(loadConfig({})),
): Preflight {
  return new Preflight(db, {
    settings,
    policy: new AddressPolicy(settings.allowedNetworks),
    resolve: systemResolver,
  });
}

export class Preflight {
  private readonly cache = new Map<string, PreflightResult>();
  private readonly limiter = new RateLimiterMemory({ points: PREFLIGHTS_PER_MINUTE, duration: 60 });

  constructor(
    private readonly db: Database,
    private readonly probe: ProbeDeps,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `caller` names who asks (a hashed key or an address): each has PREFLIGHTS_PER_MINUTE a minute. */
  async run(request: PreflightRequest, caller: string): Promise<PreflightResult> {
    try {
      await this.limiter.consume(caller);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes)
        throw new PreflightLimited(Math.ceil(refusal.msBeforeNext / 1000));
      throw refusal;
    }
    const method = request.method.toUpperCase();
    const key = `${method} ${request.url}`;
    const now = this.now();
    const kept = this.cache.get(key);
    if (kept && now.getTime() - kept.checkedAt.getTime() < CACHE_MS) return { ...kept, cached: true };
    const result = await this.probeNow(method, request.url, now);
    this.forgetOld(now);
    this.cache.set(key, result);
    return result;
  }

  private async probeNow(method: string, url: string, now: Date): Promise<PreflightResult> {
    const probe = await probeEndpoint({ method, url }, this.probe);
    const found = await findListedEndpoint(this.db, method, url);
    let drift = null;
    if (found !== null) {
      const target = await loadProbeTarget(this.db, found.id);
      drift = target === null ? null : listingDrift(target.listingOptions, probe);
      await recordProbe(this.db, { endpointId: found.id, probedAt: now, result: probe, drift });
    }
    const context = contextChecks({
      url,
      drift,
      probes7d: { probes: 0, uptime: null, p99Ms: null },
      prices: { live: null, listed: null, categoryMedian: null },
      payToSince: null,
      payToSharedWith: null,
      now,
    });
    const byId = new Map([...probe.checks, ...context].map((c) => [c.id, c]));
    const checks = CHECK_IDS.flatMap((id) => byId.get(id) ?? []);
    const payable = probe.outcome === "challenge" && probe.options.some((o) => o.payable);
    const warnings = warningsOf({
      health: "unknown",
      checks,
      zombieSince: null,
      livePayable: probe.outcome === "challenge" ? payable : null,
      authOnly: probe.traits.auth_only,
      slowP99: false,
      serviceFirstSeenAt: now,
      payToChangedAt: null,
      zombieAfterMs: 0,
      now,
    }).filter((w) => LIVE_WARNINGS.includes(w));
    return {
      checkedAt: now,
      cached: false,
      catalogued: found === null ? null : { endpointId: found.id, serviceId: found.serviceId },
      probe,
      checks,
      verdict: gradeOf(checks),
      warnings,
      payable,
    };
  }

  private forgetOld(now: Date): void {
    for (const [key, value] of this.cache) {
      if (now.getTime() - value.checkedAt.getTime() >= CACHE_MS) this.cache.delete(key);
    }
  }
}
