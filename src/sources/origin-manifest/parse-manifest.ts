import { isRecord, type Json } from "../bazaar/fields";
import type { BazaarResource } from "../bazaar/types";
import {
  type Base,
  type ElsewhereResource,
  type ManifestProblem,
  mergeBareMentions,
  type ReadingContext,
  readList,
  readVersion,
  resolve,
  text,
} from "./manifest-items";
import { isList, listFieldsOf } from "./manifest-lists";
import { manifestPayment } from "./manifest-payment";

export type { ElsewhereResource, ManifestProblem } from "./manifest-items";

/**
 * An origin's x402 manifest (`/.well-known/x402`, `x402.json`), read as sellers publish it: an
 * object holding one or more lists of resources (`resources`, `endpoints`, `items`,
 * `paidHttpResources`… see manifest-lists.ts), a bare array of items, or a 402 payment-required
 * body served as the manifest. Paths resolve against the base the manifest declares
 * (`seller_endpoint`, `baseUrl`, `servers[].url`…), else against the origin serving it. What
 * cannot be read is reported with its reason; no network, asset or amount is ever assumed.
 */

/** The list the resources came from (its field name), `bare_array`, or `payment_required`. */
export type ManifestFamily = string;

export interface ManifestReading {
  family: ManifestFamily;
  x402Version: number | null;
  name: string | null;
  description: string | null;
  /** The declared base relative paths resolved against; null when they resolved on the origin. */
  base: string | null;
  /** Resources on the seller's own site, one per item and method (duplicates merged later). */
  resources: BazaarResource[];
  /** Resources the manifest names on other sites: theirs to list, kept here as read. */
  elsewhere: ElsewhereResource[];
  problems: ManifestProblem[];
}

/** Fields that declare where the seller's API lives, in the order they are looked for. */
const BASE_FIELDS = [
  "seller_endpoint",
  "sellerEndpoint",
  "baseUrl",
  "baseURL",
  "base_url",
  "public_base_url",
  "publicBaseUrl",
  "apiBase",
  "api_base",
  "endpoint",
] as const;

/**
 * Reads a parsed manifest document. Returns a reason instead when the document is not a manifest
 * at all (no list of resources in any known field): there is nothing to keep from it.
 */
export function parseManifest(json: unknown, manifestUrl: URL): ManifestReading | string {
  if (Array.isArray(json)) {
    const context = newContext(manifestUrl, null, null, {});
    readList(json, "$", context);
    return reading("bare_array", null, null, context);
  }
  if (!isRecord(json)) return `not a manifest: the document is ${json === null ? "null" : typeof json}`;
  const lists = listFieldsOf(json);
  if (lists.length === 0 && Array.isArray(json.accepts)) return readPaymentRequired(json, manifestUrl);
  const paid = lists.filter((field) => !field.free);
  if (paid.length === 0) {
    const keys = Object.keys(json).slice(0, 12).join(", ") || "none";
    return `not a manifest: no list of paid resources in any known field (keys: ${keys})`;
  }
  const version = readVersion(json.x402Version) ?? readVersion(json.x402_version);
  const name = text(json.name) ?? text(json.serviceName);
  const context = newContext(manifestUrl, version, name, manifestPayment(json));
  const base = declaredBase(json, context);
  for (const field of lists) {
    const where = `$.${field.name}`;
    if (field.free) {
      const size = Array.isArray(field.value) ? ` (${field.value.length})` : "";
      context.problems.push({ where, message: `a list of free resources${size}: not listed`, raw: null });
    } else if (isList(field.value)) readList(field.value, where, context, base);
    else if (paid.length === 1) return `not a manifest: ${field.name} is ${typeof field.value}, not a list`;
    else context.problems.push({ where, message: `${typeof field.value}, not a list`, raw: field.value });
  }
  return reading(paid[0]!.name, text(json.description), base?.url.href ?? null, context);
}

function newContext(
  manifestUrl: URL,
  version: number | null,
  name: string | null,
  payment: Json,
): ReadingContext {
  return {
    manifestUrl,
    bare: new WeakSet(),
    version,
    name,
    payment,
    resources: [],
    elsewhere: [],
    problems: [],
  };
}

function reading(family: string, description: string | null, base: string | null, context: ReadingContext) {
  mergeBareMentions(context);
  const { version: x402Version, name, resources, elsewhere, problems } = context;
  return { family, x402Version, name, description, base, resources, elsewhere, problems };
}

/** The first base the manifest declares that is an http(s) URL; unreadable ones are problems. */
function declaredBase(json: Json, context: ReadingContext): Base | undefined {
  const servers = Array.isArray(json.servers) ? json.servers : [];
  const candidates: [string, unknown][] = [
    ...BASE_FIELDS.map((field): [string, unknown] => [`$.${field}`, json[field]]),
    ...servers.map((server, index): [string, unknown] => [
      `$.servers[${index}].url`,
      isRecord(server) ? server.url : server,
    ]),
  ];
  for (const [where, raw] of candidates) {
    const written = text(raw);
    if (written === null) continue;
    // A base is an absolute URL or a path on the manifest's origin (OpenAPI's `servers: [{url: "/"}]`).
    const url = /^(\/|[a-z][a-z0-9+.-]*:)/i.test(written) ? resolve(written, context, undefined) : null;
    if (url !== null) return { url, prefix: true };
    context.problems.push({ where, message: `declared base is not an http(s) URL: ${written}`, raw });
  }
  return undefined;
}

/**
 * A 402 body served as the manifest: v2 names its resource once (`resource.url`), v1 on each
 * `accepts` entry; each resource is read with the entries that name it.
 */
function readPaymentRequired(json: Json, manifestUrl: URL): ManifestReading {
  const version = readVersion(json.x402Version);
  const context = newContext(manifestUrl, version, null, {});
  const accepts = json.accepts as unknown[];
  if (isRecord(json.resource) || typeof json.resource === "string") {
    const method = isRecord(json.resource) ? json.resource.method : undefined;
    const item = { resource: json.resource, method, accepts, extensions: json.extensions };
    readList([item], "$", context);
  } else {
    const byResource = new Map<unknown, unknown[]>();
    for (const entry of accepts) {
      const resource = isRecord(entry) ? entry.resource : undefined;
      byResource.set(resource, [...(byResource.get(resource) ?? []), entry]);
    }
    readList(
      [...byResource].map(([resource, entries]) => ({ resource, accepts: entries })),
      "$.accepts",
      context,
    );
  }
  return reading("payment_required", null, null, context);
}
