import { withoutControls } from "../../normalise/text";
import { readCallDescription } from "../../payments/call-description";
import { normaliseAccepts } from "../../payments/normalise";
import { dig, isRecord, type Json } from "../bazaar/fields";
import { readMethod } from "../bazaar/parse";
import type { BazaarResource } from "../bazaar/types";
import { nestedListOf } from "./manifest-lists";
import { paymentOf, statedFree } from "./manifest-payment";
import { sameSite } from "./same-site";

/**
 * Items of a manifest's lists, each read the same way whatever the list: where it is (a URL, a
 * path, `"POST /path"`, or its map key), its method, description and payment. A resource on the
 * seller's own site (the manifest's registrable domain, subdomains included) is listed; one on
 * another site is recorded apart; what cannot be read is a problem with its reason.
 */

/** One item that was not listed, and why. `where` is its JSON path in the manifest. */
export interface ManifestProblem {
  where: string;
  message: string;
  raw: unknown;
}

/** A resource the manifest names on another site: recorded, not listed as this origin's. */
export interface ElsewhereResource {
  where: string;
  method: string;
  url: string;
}

export interface ReadingContext {
  manifestUrl: URL;
  /** Resources named by a bare URL or path only, which a detailed entry of the same URL replaces. */
  bare: WeakSet<object>;
  version: number | null;
  name: string | null;
  /** Payment fields the manifest states once for all its items. */
  payment: Json;
  resources: BazaarResource[];
  elsewhere: ElsewhereResource[];
  problems: ManifestProblem[];
}

/**
 * Where relative paths resolve. A declared base (`baseUrl`, `servers[].url`…) is a prefix: its
 * path is kept ("/v1" + "/search"). A service's own URL resolves like a link.
 */
export interface Base {
  url: URL;
  prefix: boolean;
}

const METHODS = "GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS";
/** "POST /v1/run", "GET https://host/path": the method may come first. */
const METHOD_FIRST = new RegExp(`^(${METHODS})\\s+(\\S+)$`, "i");
/** What reads as a location rather than a name or a price. */
const LOCATION = /^(https?:\/\/|\/)/i;
/** A path parameter not filled in: `{id}`, `:id`, `[id]`. */
const TEMPLATE = /\{[^}]*\}|\/:[A-Za-z_][\w-]*|\/\[[^\]/]+\]/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Item types of other transports (discovery items say `type: "http"` or `type: "mcp"`). */
const NOT_HTTP = /^(mcp|a2a)$/i;

/** Text without control characters (normalise/text.ts), trimmed; null when none is left. */
export const text = (value: unknown): string | null =>
  typeof value === "string" ? withoutControls(value).trim() || null : null;

const clip = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 120);

const problem = (context: ReadingContext, where: string, message: string, raw: unknown) => {
  context.problems.push({ where, message, raw });
};

/** An array of items, or a map of path (or "METHOD path", or a name) → item. */
export function readList(list: unknown[] | Json, where: string, context: ReadingContext, base?: Base): void {
  if (Array.isArray(list)) {
    list.forEach((item, index) => {
      readItem(item, `${where}[${index}]`, context, base, null);
    });
    return;
  }
  for (const [key, item] of Object.entries(list)) readItem(item, `${where}["${key}"]`, context, base, key);
}

/**
 * One item: a resource, or a service grouping resources of its own, whose nested list resolves
 * against the service's base (`baseUrl`) or URL.
 */
function readItem(
  item: unknown,
  where: string,
  context: ReadingContext,
  base: Base | undefined,
  key: string | null,
) {
  if (
    typeof item === "string" &&
    (key === null || LOCATION.test(item.trim()) || METHOD_FIRST.test(item.trim()))
  ) {
    readResource({ url: item }, where, context, base, key, true);
    return;
  }
  if (!isRecord(item)) {
    // A map of path → price ("/weather": "$0.01") is a resource with a display price only.
    if (key !== null && (typeof item === "string" || typeof item === "number")) {
      readResource({ price: item }, where, context, base, key);
      return;
    }
    problem(context, where, `not an object (${clip(item)})`, item);
    return;
  }
  const nested = nestedListOf(item);
  if (nested !== undefined && item.accepts === undefined) {
    const declared = text(item.baseUrl) ?? text(item.base_url);
    const own = declared ?? text(item.url) ?? (key !== null && LOCATION.test(key) ? key : null);
    const url = own === null ? null : resolve(own, context, base);
    const serviceBase = url === null ? base : { url, prefix: declared !== null };
    readList(nested.value as unknown[] | Json, `${where}.${nested.name}`, context, serviceBase);
    return;
  }
  readResource(item, where, context, base, key);
}

/** Objects saying how to call an item that has no location of its own (`checkout: {endpoint, method}`). */
const CALL_OBJECTS = ["checkout", "request", "call", "http", "invoke"] as const;

/** The item's location as written and a method written with it ("POST /run", or its call object's). */
function locationOf(item: Json, key: string | null): { raw: string | null; method: string | null } {
  const written =
    ownLocation(item) ??
    (key !== null && (LOCATION.test(key.trim()) || METHOD_FIRST.test(key.trim())) ? text(key) : null);
  if (written !== null) {
    const match = METHOD_FIRST.exec(written);
    return match ? { raw: match[2]!, method: match[1]!.toUpperCase() } : { raw: written, method: null };
  }
  for (const name of CALL_OBJECTS) {
    const call = item[name];
    const raw = isRecord(call) ? ownLocation(call) : null;
    if (isRecord(call) && raw !== null) return { raw, method: text(call.method)?.toUpperCase() ?? null };
  }
  return { raw: null, method: null };
}

function ownLocation(object: Json): string | null {
  const resource = typeof object.resource === "string" ? object.resource : dig(object, "resource", "url");
  return (
    text(object.url) ??
    text(resource) ??
    text(object.path) ??
    text(object.endpoint) ??
    text(object.route) ??
    text(object.href)
  );
}

/** An absolute http(s) URL, a path against the base, or (no base) a path on the manifest's origin. */
export function resolve(raw: string, context: ReadingContext, base: Base | undefined): URL | null {
  try {
    let url: URL;
    if (SCHEME.test(raw)) url = new URL(raw);
    else if (base?.prefix === true) {
      const path = base.url.pathname.replace(/\/+$/, "");
      url = new URL(`${path}/${raw.replace(/^\.?\/+/, "")}`, base.url);
    } else url = new URL(raw, base?.url ?? new URL("/", context.manifestUrl));
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

function readResource(
  item: Json,
  where: string,
  context: ReadingContext,
  base: Base | undefined,
  key: string | null,
  bare = false,
) {
  const type = text(item.type);
  if (type !== null && NOT_HTTP.test(type)) {
    // An MCP tool or an agent-to-agent endpoint is not an HTTP resource: a method would be a guess.
    problem(context, where, `a resource of type ${clip(type)}, not http: not listed as one`, item);
    return;
  }
  const { raw, method: writtenMethod } = locationOf(item, key);
  if (raw === null) {
    problem(context, where, "no url, resource or path: not listed", item);
    return;
  }
  const template = TEMPLATE.exec(raw);
  if (template !== null) {
    problem(context, where, `a URL template (${template[0]} in ${clip(raw)}): no callable URL`, item);
    return;
  }
  if (statedFree(item)) {
    problem(context, where, "free (a price of zero, or marked free): no payment asked", item);
    return;
  }
  const url = resolve(raw, context, base);
  if (url === null) {
    problem(context, where, `not an http(s) URL or path: ${clip(raw)}`, item);
    return;
  }
  url.hash = "";
  const warnings: string[] = [];
  for (const method of methodsOf(item, writtenMethod, warnings)) {
    const found =
      url.origin === context.manifestUrl.origin || sameSite(url, context.manifestUrl)
        ? listResource(url, item, method, context, [...warnings])
        : recordElsewhere({ where, method, url: url.href }, context);
    // "GET /x" names its method: only a location alone gives way to a detailed entry.
    if (bare && writtenMethod === null) context.bare.add(found);
  }
}

function recordElsewhere(resource: ElsewhereResource, context: ReadingContext): ElsewhereResource {
  context.elsewhere.push(resource);
  return resource;
}

/**
 * Drops the resources named only by a bare URL or path (`resources: ["/v1/probe"]`) that a
 * detailed entry lists too (`resource_details: [{resource: "/v1/probe", method: "POST", …}]`).
 */
export function mergeBareMentions(context: ReadingContext): void {
  const detailed = new Set([
    ...context.resources.filter((r) => !context.bare.has(r)).map((r) => r.resourceUrl),
    ...context.elsewhere.filter((r) => !context.bare.has(r)).map((r) => r.url),
  ]);
  context.resources = context.resources.filter((r) => !context.bare.has(r) || !detailed.has(r.resourceUrl));
  context.elsewhere = context.elsewhere.filter((r) => !context.bare.has(r) || !detailed.has(r.url));
}

/** The item's methods: a `methods` list, else one method (as written with the location, or the item's own). */
function methodsOf(item: Json, writtenMethod: string | null, warnings: string[]): string[] {
  if (Array.isArray(item.methods)) {
    const methods = item.methods
      .map((entry) => (typeof entry === "string" ? entry.trim().toUpperCase() : ""))
      .filter((entry) => new RegExp(`^(${METHODS})$`).test(entry));
    if (methods.length > 0) return [...new Set(methods)];
  }
  const metadata = writtenMethod === null ? item : { ...item, method: item.method ?? writtenMethod };
  return [readMethod(item, metadata, warnings)];
}

function listResource(
  url: URL,
  item: Json,
  method: string,
  context: ReadingContext,
  warnings: string[],
): BazaarResource {
  const version = readVersion(item.x402Version) ?? context.version;
  const payment = paymentOf(item, context.payment, version);
  const normalised = normaliseAccepts(payment.accepts, version);
  // An item without any payment field is still listed (the origin says it is paid), without options.
  if (payment.accepts === undefined) warnings.push("no payment requirements published for it");
  else warnings.push(...normalised.warnings);
  if (payment.note !== null) warnings.push(payment.note);
  const accepts = Array.isArray(item.accepts) ? item.accepts : [];
  const resource: BazaarResource = {
    resourceUrl: url.href,
    origin: url.origin,
    host: url.hostname.toLowerCase(),
    method,
    description:
      text(item.description) ??
      text(dig(item, "resource", "description")) ??
      text(dig(accepts[0], "description")),
    serviceName: context.name,
    iconUrl: null,
    tags: [],
    lastUpdated: null,
    totalCalls30d: null,
    uniquePayers30d: null,
    lastCalledAt: null,
    paymentOptions: normalised.options,
    call: readCallDescription(
      { extensions: item.extensions, accepts: item.accepts, metadata: item },
      warnings,
    ),
    warnings,
  };
  context.resources.push(resource);
  return resource;
}

export function readVersion(raw: unknown): number | null {
  if (typeof raw === "number" && Number.isInteger(raw)) return raw;
  if (typeof raw === "string" && /^\d+$/.test(raw.trim())) return Number(raw);
  return null;
}
