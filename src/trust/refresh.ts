import {
  categoryMedianPrices,
  type EndpointTrustFacts,
  listedServiceIds,
  loadServiceHealth,
  loadTrustFacts,
  saveTrustVerdicts,
  type TrustVerdictRow,
} from "../catalogue/trust-queries";
import type { Config } from "../config/config";
import type { Database } from "../db/prisma-client";
import type { NewEvent } from "../events/emit";
import type { Logger } from "../logging/logger";
import { activityChecks } from "./checks/activity";
import { challengeChecks } from "./checks/challenge";
import { CONTEXT_THRESHOLDS, contextChecks } from "./checks/context";
import { gradeOf, serviceChecks } from "./grade";
import { endpointHealth, type Health, type HealthSettings, serviceHealth } from "./health";
import { CHECK_IDS } from "./types";
import { type Warning, warningsOf } from "./warnings";

/** The health thresholds (HEALTH_* settings), in milliseconds, and the recompute's batch size. */
export interface TrustSettings extends HealthSettings {
  zombieAfterMs: number;
  /** Services judged and written together: memory holds one batch's facts, whatever the catalogue's size. */
  serviceBatch: number;
}

const SERVICE_BATCH = 100;

export function trustSettingsFromConfig(config: Config): TrustSettings {
  return {
    downProbes: config.HEALTH_DOWN_PROBES,
    downAfterMs: config.HEALTH_DOWN_AFTER,
    deadAfterMs: config.HEALTH_DEAD_AFTER,
    zombieAfterMs: config.HEALTH_ZOMBIE_AFTER,
    slowP99Ms: config.HEALTH_SLOW_P99,
    serviceBatch: SERVICE_BATCH,
  };
}

const DAY_MS = 86_400_000;

interface EndpointVerdict {
  facts: EndpointTrustFacts;
  row: TrustVerdictRow;
}

/** The pure part: every verdict of one endpoint from its facts. */
function judgeEndpoint(
  f: EndpointTrustFacts,
  medians: ReadonlyMap<string, string>,
  s: TrustSettings,
  now: Date,
): EndpointVerdict {
  const { health, reason } = endpointHealth(
    {
      probes: f.probes,
      latestAt: f.latestAt,
      failingRun: f.runSince === null ? null : { count: f.runCount, since: f.runSince },
      last24h: { probes: f.probes24h, failures: f.failures24h, p99Ms: f.p99Ms24h },
    },
    s,
    now,
  );
  const context = contextChecks({
    url: f.url,
    drift: f.drift,
    probes7d: { probes: f.probes7d, uptime: f.uptime7d, p99Ms: f.p99Ms7d },
    prices: {
      live: f.livePrice,
      listed: f.listedPrice,
      categoryMedian: f.category === null ? null : (medians.get(f.category) ?? null),
    },
    payToSince: f.payToSince,
    payToSharedWith: f.payToShared,
    now,
  });
  const observed = activityChecks({ endpoint: f.observed, service: f.serviceObserved });
  const byId = new Map(
    [...(f.latestChecks ?? challengeChecks(null)), ...context, ...observed].map((c) => [c.id, c]),
  );
  const checks = f.probes === 0 ? null : CHECK_IDS.flatMap((id) => byId.get(id) ?? []);
  const { grade, score } = checks === null ? { grade: null, score: null } : gradeOf(checks);
  const warnings = warningsOf({
    health,
    checks: checks ?? [],
    zombieSince: f.zombieSince,
    livePayable: f.liveChallenge ? f.livePayable : null,
    authOnly: f.latestAuthOnly,
    slowP99: f.p99Ms7d !== null && f.p99Ms7d > CONTEXT_THRESHOLDS.p99Ms,
    serviceFirstSeenAt: f.serviceFirstSeenAt,
    payToChangedAt: f.payToChangedAt,
    zombieAfterMs: s.zombieAfterMs,
    now,
  });
  const row = {
    id: f.id,
    health,
    healthReason: reason,
    healthChanged: health !== f.health,
    checks,
    grade,
    score,
    warnings,
  };
  return { facts: f, row };
}

const HEALTH_WARNINGS: readonly Warning[] = ["dead", "down"];

/** A service from its endpoints: health by the rule in health.ts, checks by serviceChecks, warnings pooled. */
function judgeService(
  id: string,
  endpoints: EndpointVerdict[],
  previous: Health | undefined,
): TrustVerdictRow {
  const { health, reason } = serviceHealth(endpoints.map((e) => e.row.health));
  const graded = endpoints.flatMap((e) => (e.row.checks === null ? [] : [e.row.checks]));
  const { grade, score } =
    graded.length === 0 ? { grade: null, score: null } : gradeOf(serviceChecks(graded));
  const pooled = new Set(
    endpoints.flatMap((e) => e.row.warnings).filter((w) => !HEALTH_WARNINGS.includes(w as Warning)),
  );
  if (health === "dead" || health === "down") pooled.add(health);
  const warnings = [...pooled];
  return {
    id,
    health,
    healthReason: reason,
    healthChanged: previous !== undefined && previous !== health,
    checks: null,
    grade,
    score,
    warnings,
  };
}

function endpointEvent(v: EndpointVerdict): NewEvent {
  const { facts: f, row } = v;
  return {
    type: "endpoint.health_changed",
    serviceId: f.serviceId,
    data: {
      service_id: f.serviceId,
      endpoint: { id: f.id, method: f.method, url: f.url },
      old_health: f.health,
      new_health: row.health,
      reason: row.healthReason,
      probes: f.recent.map((p) => ({ ...p, probed_at: new Date(p.probed_at).toISOString() })),
    },
  };
}

export interface TrustRefreshSummary {
  endpoints: number;
  endpointChanges: number;
  serviceChanges: number;
}

/** At most one progress line this often. */
const PROGRESS_EVERY_MS = 10_000;

/** One batch of services: its endpoints' and services' verdicts, written with their events. */
async function refreshBatch(
  db: Database,
  serviceIds: readonly string[],
  medians: ReadonlyMap<string, string>,
  settings: TrustSettings,
  now: Date,
): Promise<TrustRefreshSummary> {
  const lookback = settings.downAfterMs + settings.deadAfterMs + DAY_MS;
  const verdicts = (await loadTrustFacts(db, serviceIds, lookback, now)).map((f) =>
    judgeEndpoint(f, medians, settings, now),
  );
  const byService = new Map<string, EndpointVerdict[]>();
  for (const v of verdicts) {
    const list = byService.get(v.facts.serviceId);
    if (list) list.push(v);
    else byService.set(v.facts.serviceId, [v]);
  }
  const previous = await loadServiceHealth(db, [...byService.keys()]);
  const services = [...byService].map(([id, endpoints]) => judgeService(id, endpoints, previous.get(id)));
  const events: NewEvent[] = [
    ...verdicts.filter((v) => v.row.healthChanged).map(endpointEvent),
    ...services
      .filter((s) => s.healthChanged)
      .map(
        (s): NewEvent => ({
          type: "service.health_changed",
          serviceId: s.id,
          data: {
            service_id: s.id,
            old_health: previous.get(s.id) ?? "unknown",
            new_health: s.health,
            reason: s.healthReason,
          },
        }),
      ),
  ];
  await saveTrustVerdicts(
    db,
    verdicts.map((v) => v.row),
    services,
    events,
    now,
  );
  return {
    endpoints: verdicts.length,
    endpointChanges: verdicts.filter((v) => v.row.healthChanged).length,
    serviceChanges: services.filter((s) => s.healthChanged).length,
  };
}

/**
 * Recomputes and stores every listed endpoint's and service's verdicts from the probe history,
 * and emits a health_changed event for each endpoint and service whose health moved. Runs after
 * each probe sweep; safe to run at any time (it only reads probes and writes verdicts). Services
 * are judged `settings.serviceBatch` at a time, each batch written in its own transaction with its events,
 * so a recompute stopped half-way leaves every batch it finished consistent.
 */
export async function refreshTrust(
  db: Database,
  settings: TrustSettings,
  logger: Logger,
  now = new Date(),
): Promise<TrustRefreshSummary> {
  const medians = await categoryMedianPrices(db);
  const summary: TrustRefreshSummary = { endpoints: 0, endpointChanges: 0, serviceChanges: 0 };
  const total = await db.service.count({ where: { status: "listed" } });
  const started = Date.now();
  let services = 0;
  let reportedAt = started;
  for (let after: string | null = null; ; ) {
    const batch = await listedServiceIds(db, after, settings.serviceBatch);
    if (batch.length === 0) break;
    const done = await refreshBatch(db, batch, medians, settings, now);
    summary.endpoints += done.endpoints;
    summary.endpointChanges += done.endpointChanges;
    summary.serviceChanges += done.serviceChanges;
    services += batch.length;
    after = batch.at(-1) ?? null;
    if (Date.now() - reportedAt >= PROGRESS_EVERY_MS) {
      reportedAt = Date.now();
      const elapsed = reportedAt - started;
      const etaSeconds = Math.round(((elapsed / services) * Math.max(total - services, 0)) / 1000);
      logger.info({ services, total, ...summary, etaSeconds }, "trust verdicts: progress");
    }
  }
  logger.info(summary, "trust verdicts refreshed");
  return summary;
}
