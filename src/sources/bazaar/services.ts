import type { StoredService } from "../../catalogue/service-writes";
import { MCP_METHOD } from "../../mcp-tools/tool-url";
import { selfReportedOf } from "../../normalise/self-reported";
import type { NormalisedEndpoint, NormalisedStats } from "../../normalise/service";
import { HTTP_METHODS, type HttpMethod, normaliseTags } from "../../normalise/text";
import type { PaymentOption } from "../../payments/types";
import type { BazaarResource } from "./types";

/** A service as a discovery feed describes it: every resource of one origin. */
export interface BazaarService {
  /** The origin ("https://api.example.com"): the service's identity within the feed. */
  detailUrl: string;
  service: StoredService;
  /** What the feed says each endpoint accepts, parallel to `service.endpoints`. */
  paymentOptions: PaymentOption[][];
  /** Item-level oddities (option-level ones stay on each option), with the resource they came from. */
  warnings: { url: string; message: string }[];
}

/** tx_count_30d is an INTEGER column. */
const MAX_STORED_COUNT = 2_147_483_647;

type EndpointMethod = HttpMethod | typeof MCP_METHOD;

const isEndpointMethod = (text: string): text is EndpointMethod =>
  text === MCP_METHOD || (HTTP_METHODS as readonly string[]).includes(text);

/**
 * Groups a feed's resources into services by origin, one endpoint per method + URL. Everything
 * is ordered by URL, not by feed position: feeds reorder items between walks, and an order
 * change alone must not count as a change of the service.
 */
export function groupIntoServices(resources: readonly BazaarResource[]): BazaarService[] {
  const byOrigin = new Map<string, BazaarResource[]>();
  for (const resource of resources) {
    const group = byOrigin.get(resource.origin);
    if (group) group.push(resource);
    else byOrigin.set(resource.origin, [resource]);
  }
  return [...byOrigin.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([origin, group]) => toService(origin, group));
}

function toService(origin: string, group: BazaarResource[]): BazaarService {
  const sorted = [...group].sort(
    (a, b) => compare(a.resourceUrl, b.resourceUrl) || compare(a.method, b.method),
  );
  const endpoints = new Map<string, { endpoint: NormalisedEndpoint; options: PaymentOption[] }>();
  const warnings: BazaarService["warnings"] = [];
  for (const resource of sorted) {
    warnings.push(...resource.warnings.map((message) => ({ url: resource.resourceUrl, message })));
    const method = isEndpointMethod(resource.method) ? resource.method : "GET";
    const key = `${method} ${resource.resourceUrl}`;
    const seen = endpoints.get(key);
    if (seen === undefined) {
      const endpoint = {
        method,
        url: resource.resourceUrl,
        description: resource.description,
        call: resource.call,
        selfReported: selfReportedOf(resource),
      };
      endpoints.set(key, { endpoint, options: [...resource.paymentOptions] });
      continue;
    }
    // The same resource listed twice (e.g. once per protocol version): one endpoint, all its offers.
    seen.endpoint.description ??= resource.description;
    seen.endpoint.call ??= resource.call;
    seen.endpoint.selfReported ??= selfReportedOf(resource);
    for (const option of resource.paymentOptions) {
      if (!seen.options.some((known) => JSON.stringify(known) === JSON.stringify(option)))
        seen.options.push(option);
    }
  }
  const host = sorted[0]!.host;
  const stats = statsOf(sorted, warnings, origin);
  return {
    detailUrl: origin,
    service: {
      name: firstOf(sorted, (r) => r.serviceName) ?? host,
      domain: host,
      description: firstOf(sorted, (r) => r.description),
      category: null,
      endpoints: [...endpoints.values()].map((e) => e.endpoint),
      tags: normaliseTags(sorted.flatMap((r) => r.tags)).sort(),
      stats,
    },
    paymentOptions: [...endpoints.values()].map((e) => e.options),
    warnings,
  };
}

/**
 * Calls add up across endpoints. Unique payers do not (one payer may use several endpoints), so
 * the service shows the largest endpoint's count: a lower bound, never an overcount.
 */
function statsOf(
  resources: BazaarResource[],
  warnings: BazaarService["warnings"],
  origin: string,
): NormalisedStats {
  const calls = resources.flatMap((r) => (r.totalCalls30d === null ? [] : [r.totalCalls30d]));
  const payers = resources.flatMap((r) => (r.uniquePayers30d === null ? [] : [r.uniquePayers30d]));
  const updated = resources.flatMap((r) => (r.lastUpdated === null ? [] : [r.lastUpdated.getTime()]));
  let txCount30d = calls.length === 0 ? null : calls.reduce((sum, n) => sum + n, 0);
  if (txCount30d !== null && txCount30d > MAX_STORED_COUNT) {
    warnings.push({
      url: origin,
      message: `30-day call count ${txCount30d} is larger than the catalogue can store`,
    });
    txCount30d = null;
  }
  const payerCount30d = payers.length === 0 ? null : Math.min(largest(payers), MAX_STORED_COUNT);
  return {
    uptime30d: null,
    avgResponseMs30d: null,
    infoUpdatedAt: updated.length === 0 ? null : new Date(largest(updated)),
    volumeUsdc30d: null,
    txCount30d,
    payerCount30d,
  };
}

function firstOf(resources: BazaarResource[], pick: (r: BazaarResource) => string | null): string | null {
  for (const resource of resources) {
    const value = pick(resource);
    if (value !== null) return value;
  }
  return null;
}

/** Not Math.max(...values): spreading tens of thousands of arguments can overflow the stack. */
function largest(values: number[]): number {
  return values.reduce((max, n) => Math.max(max, n), Number.NEGATIVE_INFINITY);
}

/** Code-point order: the same in every locale, so fingerprints do not depend on the host. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
