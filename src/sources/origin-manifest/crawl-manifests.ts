import { listCatalogueOrigins } from "../../catalogue/catalogue-origins";
import type { CrawlSession } from "../../crawl-run/crawl-session";
import type { CrawlDependencies, CrawlOutcome, CrawlRequest } from "../../crawl-run/outcome";
import { runSource, type WalkContext, type WalkReport } from "../../crawl-run/run-source";
import { type HostResolver, systemResolver } from "../../probe/resolve-target";
import { AddressPolicy } from "../../probe/ssrf-guard";
import { createPacer } from "../bazaar/pacer";
import { type BazaarService, groupIntoServices } from "../bazaar/services";
import { storeFeedServices } from "../bazaar/store-services";
import { type ManifestFetchDeps, type OriginAnswer, readOriginManifest } from "./fetch-manifest";
import { type ManifestSettings, manifestSettingsFrom } from "./manifest-settings";

/** What the source's run is recorded under (sources.base_url): the path it reads on every origin. */
export const MANIFEST_SOURCE_URL = "/.well-known/x402";

export interface ManifestCrawlDependencies extends CrawlDependencies {
  /** Fetch settings beyond what the crawl settings give (tests: a small size cap). */
  manifest?: Partial<ManifestSettings>;
  /** Tests point made-up host names at loopback. */
  resolve?: HostResolver;
}

/**
 * One read of the manifests of every origin in the catalogue plus the configured `origins`,
 * through the shared run: each manifest read becomes one service row (its URL is the row's
 * detail URL) that the merge step joins to the entry of the same domain, with its endpoints and
 * payment options. An origin without a manifest is recorded as skipped; one whose manifest could
 * not be read keeps what is stored from it, so only a manifest read completely removes what it
 * no longer lists.
 */
export function crawlOriginManifests(
  deps: ManifestCrawlDependencies,
  request: CrawlRequest,
  origins: readonly string[],
): Promise<CrawlOutcome> {
  return runSource(deps, request, {
    kind: "origin_manifest",
    baseUrl: MANIFEST_SOURCE_URL,
    name: "manifest crawl",
    walk: (context) => walkManifests(deps, origins, context),
  });
}

async function walkManifests(
  deps: ManifestCrawlDependencies,
  configured: readonly string[],
  { session, batcher, logger, signal }: WalkContext,
): Promise<WalkReport> {
  const origins = [...new Set([...(await listCatalogueOrigins(deps.db)), ...configured])].sort();
  if (origins.length === 0) {
    const message = "no origins to read: the catalogue lists none and no origins are configured";
    return {
      listedUrls: [],
      aborted: false,
      crashed: null,
      shortfall: { status: "failed", message },
      readSummary: "0 origins",
    };
  }
  const settings = manifestSettingsFrom(deps.settings, deps.manifest);
  const answers = await readAll(origins, fetchDeps(settings, deps.resolve), settings.concurrency, signal);
  logger.info({ origins: origins.length }, `manifests of ${origins.length} origins asked`);

  const services: BazaarService[] = [];
  const kept: string[] = [];
  const tally = { read: 0, absent: 0, failed: 0 };
  for (const [origin, answer] of answers) {
    tally[answer.kind] += 1;
    session.counts.pagesFetched += answer.requests;
    if (answer.kind === "read") services.push(...serviceOf(answer, session));
    else if (answer.kind === "absent") {
      session.recordError({
        kind: "skipped",
        url: origin,
        statusCode: answer.statusCode,
        message: answer.reason,
      });
    } else {
      session.counts.pagesFailed += 1;
      session.recordError({
        kind: "fetch",
        url: answer.url,
        statusCode: answer.statusCode,
        message: answer.reason,
      });
      kept.push(...storedRowsOf(origin, session));
    }
  }
  const unique = firstPerManifest(services);
  await storeFeedServices(deps.db, session, batcher, unique, { complete: true, observedAt: new Date() });
  for (const url of kept) markKept(session, url);
  const aborted = signal?.aborted === true;
  const failed = tally.read + tally.absent === 0;
  return {
    listedUrls: [...unique.map((s) => s.detailUrl), ...kept],
    aborted,
    crashed: null,
    shortfall: failed
      ? { status: "failed", message: `no origin answered: ${firstFailure(answers)}; nothing was delisted` }
      : null,
    readSummary:
      `${origins.length} origins: ${tally.read} manifests read, ${tally.absent} without one, ` +
      `${tally.failed} unreadable (kept as stored)`,
  };
}

function fetchDeps(settings: ManifestSettings, resolve: HostResolver = systemResolver): ManifestFetchDeps {
  return {
    request: {
      settings: {
        timeoutMs: settings.timeoutMs,
        maxResponseBytes: settings.maxBytes,
        maxRedirects: settings.maxRedirects,
        userAgent: settings.userAgent,
      },
      policy: new AddressPolicy(settings.allowedNetworks),
      resolve,
    },
    pace: createPacer(60_000 / settings.requestsPerMinute),
  };
}

/** `concurrency` origins at a time; each origin's requests run one after another. */
async function readAll(
  origins: string[],
  deps: ManifestFetchDeps,
  concurrency: number,
  signal?: AbortSignal,
): Promise<Map<string, OriginAnswer>> {
  const answers = new Map<string, OriginAnswer>();
  let next = 0;
  const worker = async () => {
    while (next < origins.length && !signal?.aborted) {
      const origin = origins[next++]!;
      try {
        answers.set(origin, await readOriginManifest(origin, deps, signal));
      } catch (error) {
        // Only the pacer throws (stopped while waiting): the origin was not asked.
        if (!signal?.aborted) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, origins.length)) }, worker));
  return answers;
}

/**
 * The manifest's resources as one service (the shared grouping of feed resources), under the
 * manifest's URL and with its own description; items that could not be read are recorded.
 */
function serviceOf(answer: ManifestRead, session: CrawlSession): BazaarService[] {
  const { manifestUrl, reading } = recordManifestProblems(answer, session);
  return groupIntoServices(reading.resources).map((service) => ({
    ...service,
    detailUrl: manifestUrl,
    service: { ...service.service, description: reading.description ?? service.service.description },
  }));
}

export type ManifestRead = Extract<OriginAnswer, { kind: "read" }>;

/** Records the manifest's warnings and the items it could not read as the run's value problems. */
export function recordManifestProblems(answer: ManifestRead, session: CrawlSession): ManifestRead {
  const { manifestUrl, reading } = answer;
  for (const warning of answer.warnings) {
    session.recordError({ kind: "value", url: manifestUrl, field: "manifest", message: warning });
  }
  session.counts.valueProblems += answer.warnings.length + reading.problems.length;
  for (const problem of reading.problems) {
    session.recordError({
      kind: "value",
      url: manifestUrl,
      field: problem.where,
      rawText: (JSON.stringify(problem.raw) ?? "").slice(0, 2_000),
      message: problem.message,
    });
  }
  return answer;
}

/** Two origins (http and https) redirected to one manifest: it is one row. */
function firstPerManifest(services: BazaarService[]): BazaarService[] {
  const seen = new Set<string>();
  return services.filter((service) => !seen.has(service.detailUrl) && seen.add(service.detailUrl));
}

/** Listed rows stored from this origin's manifest (same host name, whichever path or scheme it was read at). */
function storedRowsOf(origin: string, session: CrawlSession): string[] {
  const host = new URL(origin).hostname;
  return [...session.known.entries()]
    .filter(([url, row]) => row.status === "listed" && URL.canParse(url) && new URL(url).hostname === host)
    .map(([url]) => url);
}

function markKept(session: CrawlSession, detailUrl: string): void {
  const known = session.known.get(detailUrl);
  if (known === undefined) return;
  session.unchangedServiceIds.push(known.id);
  session.counts.servicesUnchanged += 1;
}

function firstFailure(answers: Map<string, OriginAnswer>): string {
  for (const answer of answers.values()) if (answer.kind === "failed") return answer.reason;
  return "stopped before any origin was asked";
}
