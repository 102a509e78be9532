import { announceCatalogueChange } from "../catalogue/catalogue-changes";
import { loadProbeTarget, recordProbe } from "../catalogue/probe-writes";
import { ensureSource } from "../catalogue/sources";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "../crawl-run/outcome";
import { runSource } from "../crawl-run/run-source";
import { listingDrift } from "../probe/probe-endpoint";
import { type OriginCheck, type OriginCheckDeps, walkRegisteredOrigin } from "./check-origin";
import type { ProbedUrl } from "./probed-resource";
import { registrationOutcome } from "./registration-outcome";
import {
  findRegistrationsOfOrigin,
  type ListedResource,
  listedEndpointsOfSource,
  type Registration,
  recordRegistrationOutcome,
} from "./registrations";

/** What a re-index needs: the crawl's dependencies (lock, run record, writes) and the origin check's. */
export interface IndexDependencies extends CrawlDependencies {
  check: Omit<OriginCheckDeps, "db">;
}

/** What one re-index of an origin came to. */
export type ReindexResult =
  /** Another check of the origin was under way (its source's lock): nothing was read. */
  | { ran: false; origin: string; reason: string; registrations: Registration[] }
  | {
      ran: true;
      origin: string;
      /** The run of the origin's `registered` source. */
      outcome: Exclude<CrawlOutcome, { status: "skipped" }>;
      check: OriginCheck;
      /** Every endpoint the origin's registered source lists after the check. */
      listed: ListedResource[];
      /** The origin's registrations, with the check's outcome. */
      registrations: Registration[];
    };

/**
 * Re-indexes one origin now, as a run of its `registered` source (one source per origin, so what
 * it delists is delisted for that source only): its manifest is read, its registered URLs are
 * probed, new resources are listed and, when everything could be read, resources no longer
 * listed or answering are delisted, through the same writes, merge and events as every crawl
 * (service.listed, endpoint.added/removed, endpoint.price_changed). The probes are recorded on
 * the endpoints they listed, and each registration of the origin gets its state, reason and
 * what it listed. The route, MCP tool, owner action and schedule all call this.
 */
export async function reindexOrigin(
  deps: IndexDependencies,
  origin: string,
  trigger: CrawlRequest["trigger"] = "manual",
  signal?: AbortSignal,
): Promise<ReindexResult> {
  const { db } = deps;
  const before = await findRegistrationsOfOrigin(db, origin);
  const urls = before.flatMap((r) =>
    r.kind === "url" && r.url && r.method ? [{ method: r.method, url: r.url }] : [],
  );
  let check: OriginCheck | null = null;
  const outcome = await runSource(
    deps,
    { url: origin, trigger, signal },
    {
      kind: "registered",
      baseUrl: origin,
      name: "registered origin check",
      walk: (context) =>
        walkRegisteredOrigin({ db, ...deps.check }, origin, urls, context, (read) => {
          check = read;
        }),
    },
  );
  if (outcome.status === "skipped")
    return { ran: false, origin, reason: outcome.reason, registrations: before };
  const done = check as OriginCheck | null;
  if (done === null) throw new Error(`the check of ${origin} ended without reporting what it read`);
  const source = await ensureSource(db, "registered", origin);
  const endpoints = await listedEndpointsOfSource(db, source.id);
  await recordProbes(deps, done.probes, endpoints);
  const checkedAt = new Date();
  const registrations = await Promise.all(
    before.map((registration) =>
      recordRegistrationOutcome(db, registration.id, {
        ...registrationOutcome(registration, done, endpoints),
        sourceId: source.id,
        checkedAt,
      }),
    ),
  );
  const listed = endpoints.map(({ method, url, serviceId }) => ({ method, url, serviceId }));
  return { ran: true, origin, outcome, check: done, listed, registrations };
}

/** Each probe recorded on the endpoint it listed, as a sweep's probe is, with drift from the other listings. */
async function recordProbes(
  deps: IndexDependencies,
  probes: ProbedUrl[],
  endpoints: (ListedResource & { id: string })[],
): Promise<void> {
  let recorded = 0;
  for (const probed of probes) {
    const endpoint = endpoints.find((e) => e.method === probed.method && e.url === probed.url);
    if (endpoint === undefined) continue;
    const target = await loadProbeTarget(deps.db, endpoint.id);
    if (target === null) continue;
    const drift = listingDrift(target.listingOptions, probed.result);
    await recordProbe(deps.db, {
      endpointId: endpoint.id,
      probedAt: new Date(),
      result: probed.result,
      drift,
    });
    recorded += 1;
  }
  if (recorded === 0) return;
  await announceCatalogueChange(deps.db).catch((err: unknown) =>
    deps.logger.warn({ err }, "could not announce the recorded probes; APIs see them at their next check"),
  );
}
