import type { WalkContext, WalkReport } from "../crawl-run/run-source";
import type { Database } from "../db/prisma-client";
import { probeMcpServer } from "../mcp-tools/probe-mcp";
import { MCP_METHOD } from "../mcp-tools/tool-url";
import type { GuardedRequestDeps } from "../probe/guarded-request";
import { probeEndpoint } from "../probe/probe-endpoint";
import type { HostRateLimiter } from "../probe/rate-limit";
import { groupIntoServices } from "../sources/bazaar/services";
import { storeFeedServices } from "../sources/bazaar/store-services";
import type { BazaarResource } from "../sources/bazaar/types";
import { recordManifestProblems } from "../sources/origin-manifest/crawl-manifests";
import { type OriginAnswer, readOriginManifest } from "../sources/origin-manifest/fetch-manifest";
import {
  answersChallenge,
  inconclusive,
  type ProbedUrl,
  refusalOfProbe,
  resourceOfProbe,
} from "./probed-resource";

/** How an origin is checked: probes and manifest reads through the address guard, paced per host. */
export interface OriginCheckDeps {
  db: Database;
  probe: GuardedRequestDeps;
  manifest: GuardedRequestDeps;
  /** Politeness per host, shared by every check of this process (the probes' per-host rate). */
  hosts: HostRateLimiter;
}

/** What one check of a registered origin read. */
export interface OriginCheck {
  manifest: OriginAnswer;
  probes: ProbedUrl[];
  /** Why what is stored was kept rather than reconciled (the manifest or a probe said nothing); null when complete. */
  incomplete: string | null;
}

/**
 * The walk of a registered origin's source: read its manifest, probe each registered URL on it
 * (one request at a time per host), and store what the manifest lists and what answers a valid
 * x402 challenge as the origin's service. Only a complete check lets the run delist: a manifest
 * that could not be read, or a URL that did not answer, keeps what is stored.
 */
export async function walkRegisteredOrigin(
  deps: OriginCheckDeps,
  origin: string,
  urls: readonly { method: string; url: string }[],
  { session, batcher, signal }: WalkContext,
  report: (check: OriginCheck) => void,
): Promise<WalkReport> {
  const host = new URL(origin).hostname;
  const pace = (abort?: AbortSignal) => deps.hosts.acquire(host, abort);
  const manifest = await readOriginManifest(origin, { request: deps.manifest, pace }, signal);
  session.counts.pagesFetched += manifest.requests;
  const probes: ProbedUrl[] = [];
  let probed = 0;
  for (const target of urls) {
    if (signal?.aborted) break;
    await pace(signal);
    probes.push(...(await probeTarget(deps, target, signal)));
    probed += 1;
  }
  session.counts.pagesFetched += probes.length;

  const resources: BazaarResource[] = [];
  if (manifest.kind === "read")
    resources.push(...recordManifestProblems(manifest, session).reading.resources);
  else recordUnread(manifest, origin, session);
  for (const probed of probes) {
    if (answersChallenge(probed.result)) resources.push(resourceOfProbe(probed));
    else
      session.recordError({
        kind: "value",
        url: probed.url,
        field: "probe",
        message: refusalOfProbe(probed),
      });
  }
  const incomplete = incompleteBecause(manifest, probes, probed < urls.length);
  const services = groupIntoServices(resources);
  await storeFeedServices(deps.db, session, batcher, services, {
    complete: incomplete === null,
    observedAt: new Date(),
  });
  const listed = new Set(services.map((service) => service.detailUrl));
  if (incomplete !== null) for (const url of keptRows(session, listed)) listed.add(url);
  report({ manifest, probes, incomplete });
  const failed = resources.length === 0 && manifest.kind === "failed" && incomplete !== null;
  return {
    listedUrls: [...listed],
    aborted: signal?.aborted === true,
    crashed: null,
    shortfall:
      incomplete === null
        ? null
        : { status: failed ? "failed" : "partial", message: `${incomplete}; nothing was delisted` },
    readSummary: `manifest ${manifest.kind}, ${probes.length} URLs probed, ${resources.length} resources`,
  };
}

/**
 * One registered URL probed: an HTTP resource by one request; an MCP server (method MCP) with the
 * MCP SDK client, each of its tools an endpoint (server URL and tool name), or the server's
 * failure under the registered URL when it could not be read.
 */
async function probeTarget(
  deps: OriginCheckDeps,
  target: { method: string; url: string },
  signal: AbortSignal | undefined,
): Promise<ProbedUrl[]> {
  if (target.method !== MCP_METHOD) return [{ ...target, result: await probeEndpoint(target, deps.probe) }];
  const server = await probeMcpServer(target.url, { ...deps.probe, limiter: deps.hosts, signal });
  if (server.failure !== null) return [{ ...target, result: server.failure }];
  return server.tools.map((tool) => ({ method: MCP_METHOD, url: tool.url, result: tool.result }));
}

function incompleteBecause(manifest: OriginAnswer, probes: ProbedUrl[], stopped: boolean): string | null {
  if (manifest.kind === "failed") return `the manifest could not be read (${manifest.reason})`;
  const silent = probes.find((probed) => inconclusive(probed.result));
  if (silent !== undefined) return refusalOfProbe(silent);
  if (stopped) return "stopped before every registered URL was probed";
  return null;
}

function recordUnread(
  manifest: Exclude<OriginAnswer, { kind: "read" }>,
  origin: string,
  session: WalkContext["session"],
) {
  const url = manifest.kind === "failed" ? manifest.url : origin;
  session.recordError({
    kind: manifest.kind === "failed" ? "fetch" : "skipped",
    url,
    statusCode: manifest.statusCode,
    message: manifest.reason,
  });
  if (manifest.kind === "failed") session.counts.pagesFailed += 1;
}

/** Listed rows of this origin's source the check did not rewrite: kept as stored. */
function keptRows(session: WalkContext["session"], written: Set<string>): string[] {
  const kept: string[] = [];
  for (const [url, row] of session.known) {
    if (row.status !== "listed" || written.has(url)) continue;
    kept.push(url);
    session.unchangedServiceIds.push(row.id);
    session.counts.servicesUnchanged += 1;
  }
  return kept;
}
