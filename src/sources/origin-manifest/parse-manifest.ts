import { withoutControls } from "../../normalise/text";
import { readCallDescription } from "../../payments/call-description";
import { normaliseAccepts } from "../../payments/normalise";
import { dig, isRecord, type Json } from "../bazaar/fields";
import { readMethod } from "../bazaar/parse";
import type { BazaarResource } from "../bazaar/types";

/**
 * An origin's x402 manifest (`/.well-known/x402`), read as published. Real manifests come in
 * several families: `{x402Version, endpoints | services | resources: [...]}`, and free-form ones
 * without a version (`{name, endpoints: {"/path": {price}}}`, or a bare array of items). Whatever
 * the family, each listed item is read the same way (a URL or path, a method, a description, and
 * payment requirements: `accepts` entries, else the flat fields the item carries). What cannot be
 * read is reported; nothing is filled in: no default network, asset or amount is ever assumed.
 */

export type ManifestFamily = "endpoints" | "services" | "resources" | "routes" | "bare_array";

/** One item that was not listed, and why. `where` is its JSON path in the manifest. */
export interface ManifestProblem {
  where: string;
  message: string;
  raw: unknown;
}

export interface ManifestReading {
  family: ManifestFamily;
  x402Version: number | null;
  name: string | null;
  description: string | null;
  /** Resources on the manifest's own origin, one per item read (duplicates merged later). */
  resources: BazaarResource[];
  problems: ManifestProblem[];
}

/** The list fields manifests use, in the order they are looked for. */
const LIST_FIELDS = ["endpoints", "services", "resources", "routes"] as const;

/** Flat payment fields an item may carry instead of an `accepts` array. */
const FLAT_PAYMENT_FIELDS = [
  "scheme",
  "network",
  "asset",
  "payTo",
  "maxAmountRequired",
  "amount",
  "price",
  "maxTimeoutSeconds",
  "extra",
] as const;

/** A map key such as "POST /v1/run": the method may come first. */
const METHOD_KEY = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\s+(\S+)$/i;

/** Text without control characters (normalise/text.ts), trimmed; null when none is left. */
const text = (value: unknown): string | null =>
  typeof value === "string" ? withoutControls(value).trim() || null : null;

const clip = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 120);

/** Where the manifest was read and whose resources count: only those on `origin`. */
interface Context {
  manifestUrl: URL;
  version: number | null;
  name: string | null;
  resources: BazaarResource[];
  problems: ManifestProblem[];
}

/**
 * Reads a parsed manifest document. Returns a reason instead when the document is not a manifest
 * at all (no list of resources in any known field): there is nothing to keep from it.
 */
export function parseManifest(json: unknown, manifestUrl: URL): ManifestReading | string {
  if (Array.isArray(json)) {
    const context = newContext(manifestUrl, null, null);
    readList(json, "$", context);
    return reading("bare_array", null, context);
  }
  if (!isRecord(json)) return `not a manifest: the document is ${json === null ? "null" : typeof json}`;
  const fields = LIST_FIELDS.filter((name) => json[name] !== undefined && json[name] !== null);
  const [family] = fields;
  if (family === undefined) {
    const keys = Object.keys(json).slice(0, 12).join(", ") || "none";
    return `not a manifest: no endpoints, services, resources or routes listed (keys: ${keys})`;
  }
  const context = newContext(
    manifestUrl,
    readVersion(json.x402Version),
    text(json.name) ?? text(json.serviceName),
  );
  // Every list present is read (a manifest may keep `endpoints` beside `resources`); the first names the family.
  for (const field of fields) {
    const list = json[field];
    if (Array.isArray(list) || isRecord(list)) readList(list, `$.${field}`, context);
    else if (fields.length === 1) return `not a manifest: ${field} is ${typeof list}, not a list`;
    else context.problems.push({ where: `$.${field}`, message: `${typeof list}, not a list`, raw: list });
  }
  return reading(family, text(json.description), context);
}

function readVersion(raw: unknown): number | null {
  if (typeof raw === "number" && Number.isInteger(raw)) return raw;
  if (typeof raw === "string" && /^\d+$/.test(raw.trim())) return Number(raw);
  return null;
}

function newContext(manifestUrl: URL, version: number | null, name: string | null): Context {
  return { manifestUrl, version, name, resources: [], problems: [] };
}

function reading(family: ManifestFamily, description: string | null, context: Context): ManifestReading {
  const { version: x402Version, name, resources, problems } = context;
  return { family, x402Version, name, description, resources, problems };
}

/** An array of items, or a map of path (or "METHOD path") → item. */
function readList(list: unknown[] | Json, where: string, context: Context, base?: URL): void {
  if (Array.isArray(list)) {
    list.forEach((item, index) => {
      readItem(item, `${where}[${index}]`, context, base, null);
    });
    return;
  }
  for (const [key, item] of Object.entries(list)) readItem(item, `${where}["${key}"]`, context, base, key);
}

/**
 * One item: a resource, or (services family) a service grouping resources of its own; then its
 * nested list is read with the service's URL as the base for relative paths.
 */
function readItem(item: unknown, where: string, context: Context, base: URL | undefined, key: string | null) {
  if (typeof item === "string" && key === null) {
    readResource({ url: item }, where, context, base, null);
    return;
  }
  if (!isRecord(item)) {
    // A map of path → price ("/weather": "$0.01") is a resource with a display price only.
    if (key !== null && (typeof item === "string" || typeof item === "number")) {
      readResource({ price: item }, where, context, base, key);
      return;
    }
    context.problems.push({ where, message: `not an object (${clip(item)})`, raw: item });
    return;
  }
  const nested = LIST_FIELDS.find((name) => Array.isArray(item[name]) || isRecord(item[name]));
  if (nested !== undefined && item.accepts === undefined) {
    const serviceBase = resolveUrl(text(item.url) ?? text(item.baseUrl) ?? key, context, base);
    const list = item[nested] as unknown[] | Json;
    readList(list, `${where}.${nested}`, context, serviceBase ?? base);
    return;
  }
  readResource(item, where, context, base, key);
}

function resolveUrl(raw: string | null, context: Context, base: URL | undefined): URL | null {
  if (raw === null) return null;
  try {
    // A relative path is the origin's ("weather" is /weather, not /.well-known/weather).
    const url = new URL(raw, base ?? new URL("/", context.manifestUrl));
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** The item's URL as written: `url`, `resource` (v1 string or v2 ResourceInfo), `path`, `endpoint`, or its map key. */
function rawUrlOf(item: Json, key: string | null): { raw: string | null; keyMethod: string | null } {
  const resource = typeof item.resource === "string" ? item.resource : dig(item, "resource", "url");
  const raw = text(item.url) ?? text(resource) ?? text(item.path) ?? text(item.endpoint);
  if (raw !== null || key === null) return { raw, keyMethod: null };
  const match = METHOD_KEY.exec(key.trim());
  return match ? { raw: match[2]!, keyMethod: match[1]!.toUpperCase() } : { raw: text(key), keyMethod: null };
}

function readResource(
  item: Json,
  where: string,
  context: Context,
  base: URL | undefined,
  key: string | null,
) {
  const { raw, keyMethod } = rawUrlOf(item, key);
  if (raw === null) {
    context.problems.push({ where, message: "no url, resource or path: not listed", raw: item });
    return;
  }
  const url = resolveUrl(raw, context, base);
  if (url === null) {
    context.problems.push({ where, message: `not an http(s) URL or path: ${clip(raw)}`, raw: item });
    return;
  }
  url.hash = "";
  const origin = context.manifestUrl.origin;
  if (url.origin !== origin) {
    // A manifest speaks for its own origin only: another origin's resources are that origin's to list.
    const message = `on another origin (${url.origin}); only ${origin}'s own resources count`;
    context.problems.push({ where, message, raw: item });
    return;
  }
  const warnings: string[] = [];
  const version = readVersion(item.x402Version) ?? context.version;
  const { accepts, fromFlatFields } = acceptsOf(item, version, warnings);
  const normalised = normaliseAccepts(accepts, version);
  // An item without any payment field is still listed (the origin says it is paid), without options.
  if (accepts !== undefined) warnings.push(...normalised.warnings);
  if (fromFlatFields) warnings.push("payment requirements read from the item's own fields (no accepts)");
  resourceOf(url, item, keyMethod, normalised.options, context, warnings);
}

function resourceOf(
  url: URL,
  item: Json,
  keyMethod: string | null,
  paymentOptions: BazaarResource["paymentOptions"],
  context: Context,
  warnings: string[],
): void {
  const accepts = Array.isArray(item.accepts) ? item.accepts : [];
  context.resources.push({
    resourceUrl: url.href,
    origin: url.origin,
    host: url.hostname.toLowerCase(),
    // A map key's method ("POST /run") counts as the item's own.
    method: readMethod(
      item,
      keyMethod === null ? item : { ...item, method: item.method ?? keyMethod },
      warnings,
    ),
    description: text(item.description) ?? text(dig(accepts[0], "description")),
    serviceName: context.name,
    iconUrl: null,
    tags: [],
    lastUpdated: null,
    totalCalls30d: null,
    uniquePayers30d: null,
    lastCalledAt: null,
    paymentOptions,
    call: readCallDescription(
      { extensions: item.extensions, accepts: item.accepts, metadata: item },
      warnings,
    ),
    warnings,
  });
}

/**
 * The item's `accepts` as published; without one, a single entry made of the flat payment fields
 * the item carries, exactly as written. A display `price` ("$0.01", or `{amount, asset}` as the
 * x402 server middleware configures it) stands where the amount belongs only when no amount is
 * given, and the normaliser then says it is not an atomic amount.
 */
function acceptsOf(
  item: Json,
  version: number | null,
  warnings: string[],
): { accepts: unknown; fromFlatFields: boolean } {
  if (item.accepts !== undefined) return { accepts: item.accepts, fromFlatFields: false };
  const present = FLAT_PAYMENT_FIELDS.filter((field) => item[field] !== undefined && item[field] !== null);
  if (present.length === 0) {
    warnings.push("no payment requirements published for it");
    return { accepts: undefined, fromFlatFields: false };
  }
  const entry: Json = {};
  for (const field of present) if (field !== "price") entry[field] = item[field];
  if (item.price !== undefined && entry.amount === undefined && entry.maxAmountRequired === undefined) {
    const price = item.price;
    const amountField = version === 1 ? "maxAmountRequired" : "amount";
    if (isRecord(price)) {
      entry[amountField] = price.amount;
      entry.asset ??= price.asset;
    } else entry[amountField] = price;
    warnings.push(`price ${clip(price)} read as the ${amountField}`);
  }
  return { accepts: [entry], fromFlatFields: true };
}
