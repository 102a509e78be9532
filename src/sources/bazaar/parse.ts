import type { z } from "zod";
import { readCallDescription } from "../../payments/call-description";
import { normaliseAccepts } from "../../payments/normalise";
import { dig, firstCount, firstText, isRecord, type Json, mergeTags } from "./fields";
import { isMcpItem, readMcpEndpoint } from "./mcp-item";
import { readContinuation } from "./pagination";
import { type FeedItem, FeedItemSchema, FeedPageSchema, PaginationSchema } from "./schema";
import { parseTimestamp } from "./timestamps";
import type { BazaarPage, BazaarPagination, BazaarResource } from "./types";

export { nextOffsets } from "./pagination";

/** The page itself is not a discovery feed answer; unlike a bad item this cannot be skipped. */
export class BazaarFeedError extends Error {
  override name = "BazaarFeedError";
}

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Absolute http(s) URL without fragment, or the reason it is not one. */
function readResourceUrl(item: FeedItem, warnings: string[]): URL | string {
  let raw = typeof item.resource === "string" ? item.resource : item.resource?.url;
  if (raw === undefined && item.url !== undefined) {
    warnings.push("item uses url instead of resource");
    raw = item.url;
  }
  if (raw === undefined) {
    const named = resourcesNamedByAccepts(item.accepts);
    if (named.length > 1)
      return `resource is missing, and the accepts entries name different resources: ${named.join(", ")}`;
    if (named[0] === undefined) return "resource is missing";
    warnings.push("item has no resource; read from accepts[].resource");
    raw = named[0];
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return `resource is not an absolute URL: ${raw}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `resource is not http(s): ${raw}`;
  url.hash = "";
  return url;
}

/**
 * The distinct URLs the accepts entries give as `resource`. In v1 every entry repeats the URL of
 * the resource it pays for, so an item that lost its own `resource` can still be placed; if the
 * entries disagree, picking one would be a guess.
 */
function resourcesNamedByAccepts(accepts: unknown): string[] {
  const named = new Set<string>();
  for (const entry of Array.isArray(accepts) ? accepts : []) {
    const raw = dig(entry, "resource");
    if (typeof raw !== "string" || raw.trim() === "") continue;
    // Spellings of one URL (host case, default port) are one resource.
    named.add(URL.canParse(raw.trim()) ? new URL(raw.trim()).href : raw.trim());
  }
  return [...named];
}

/**
 * v1 entries declare the method in accepts[].outputSchema.input; v2 moved discovery info to the
 * bazaar extension; some feeds put it in metadata (a manifest item is its own metadata). The
 * first valid one wins.
 */
export function readMethod(item: Json, metadata: Json, warnings: string[]): string {
  const accepts = Array.isArray(item.accepts) ? item.accepts : [];
  const candidates = [
    ...accepts.map((entry) => dig(entry, "outputSchema", "input", "method")),
    dig(item, "extensions", "bazaar", "info", "input", "method"),
    metadata.method,
    dig(metadata, "input", "method"),
  ];
  for (const candidate of candidates) {
    if (typeof candidate !== "string") continue;
    const method = candidate.trim().toUpperCase();
    if (HTTP_METHODS.has(method)) return method;
    warnings.push(`unknown HTTP method ignored: ${candidate}`);
  }
  return "GET";
}

function readDate(field: string, raw: unknown, warnings: string[]): Date | null {
  const { date, warning } = parseTimestamp(field, raw);
  if (warning !== null) warnings.push(warning);
  return date;
}

/** Reads one feed item; returns the reason instead when the item must be skipped. */
export function parseBazaarItem(raw: unknown, pageVersion: number | null): BazaarResource | string {
  const parsed = FeedItemSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `not a feed item: ${issue ? `${issue.path.join(".") || "(item)"}: ${issue.message}` : "invalid"}`;
  }
  const item = parsed.data;
  const warnings: string[] = [];
  const mcp = isMcpItem(item);
  const url = readResourceUrl(item, warnings);
  // An MCP tool is reached at its server's URL; mcp://tool/… names a tool but no server to reach.
  if (typeof url === "string") return mcp ? `mcp item without its server's http(s) URL: ${url}` : url;

  if (item.type !== undefined && item.type !== "http" && !mcp) {
    warnings.push(`type is not http: ${String(item.type)}`);
  }
  if (item.metadata !== undefined && item.metadata !== null && !isRecord(item.metadata)) {
    warnings.push("metadata is not an object");
  }
  const metadata: Json = isRecord(item.metadata) ? item.metadata : {};
  const info: Json = isRecord(item.resource) ? item.resource : {};
  // Fields may sit on the item, in metadata, or (v2) in the resource object; the item wins.
  const from = (key: string): [string, unknown][] => [
    [key, item[key]],
    [`metadata.${key}`, metadata[key]],
    [`resource.${key}`, info[key]],
  ];
  const quality = (key: string): [string, unknown][] => [
    [`quality.${key}`, dig(item, "quality", key)],
    [`metadata.quality.${key}`, dig(metadata, "quality", key)],
    [`metadata.${key}`, metadata[key]],
  ];

  const endpoint = mcp
    ? readMcpEndpoint(item, metadata, url, warnings)
    : { method: readMethod(item, metadata, warnings), url: url.href };
  if (typeof endpoint === "string") return endpoint;

  const version = typeof item.x402Version === "number" ? item.x402Version : pageVersion;
  const accepts = normaliseAccepts(item.accepts, version);
  // Without a payment option the item is not a paid resource: nothing to list, nothing to probe.
  if (accepts.options.length === 0) return noPaymentReason(item.accepts, accepts.warnings);
  warnings.push(...accepts.warnings);
  const firstAccept = Array.isArray(item.accepts) ? item.accepts[0] : undefined;

  return {
    resourceUrl: endpoint.url,
    origin: url.origin,
    host: url.hostname.toLowerCase(),
    method: endpoint.method,
    // v1 accepts entries carry the description too; used when nothing else has one.
    description: firstText(
      [...from("description"), ["accepts[0].description", dig(firstAccept, "description")]],
      warnings,
    ),
    serviceName: firstText(from("serviceName"), warnings),
    iconUrl: readIconUrl(firstText(from("iconUrl"), warnings), warnings),
    tags: mergeTags([item.tags, metadata.tags, info.tags], warnings),
    lastUpdated: readDate("lastUpdated", item.lastUpdated, warnings),
    totalCalls30d: firstCount(quality("l30DaysTotalCalls"), warnings),
    uniquePayers30d: firstCount(quality("l30DaysUniquePayers"), warnings),
    lastCalledAt: readDate("lastCalledAt", firstPresent(quality("lastCalledAt")), warnings),
    paymentOptions: accepts.options,
    call: readCallDescription(
      { extensions: item.extensions, accepts: item.accepts, metadata: item.metadata },
      warnings,
    ),
    warnings,
  };
}

function readIconUrl(text: string | null, warnings: string[]): string | null {
  if (text === null) return null;
  if (/^https?:\/\/\S+$/i.test(text)) return text;
  warnings.push(`iconUrl ignored: not an http(s) URL: ${text.slice(0, 80)}`);
  return null;
}

function noPaymentReason(accepts: unknown, warnings: readonly string[]): string {
  if (accepts === undefined || accepts === null) return "no payment requirements: accepts is missing";
  if (Array.isArray(accepts) && accepts.length === 0) return "no payment requirements: accepts is empty";
  const why = warnings.length > 0 ? ` (${warnings.join("; ")})` : "";
  return `no payment requirements: no readable accepts entry${why}`;
}

function firstPresent(candidates: [string, unknown][]): unknown {
  return candidates.find(([, value]) => value !== undefined && value !== null)?.[1];
}

function readPagination(raw: unknown): BazaarPagination | null {
  const parsed = PaginationSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { limit, offset, total } = parsed.data;
  return { limit, offset, total };
}

type FeedPage = z.infer<typeof FeedPageSchema>;

function readFeedPage(json: unknown): FeedPage {
  const page = FeedPageSchema.safeParse(json);
  if (!page.success)
    throw new BazaarFeedError(
      "not a discovery feed page: expected an object with an items (or resources) array",
    );
  return page.data;
}

/** `items` wins: a search answer may repeat its `resources` there as a deprecated alias. */
const itemsOf = (page: FeedPage): unknown[] => page.items ?? page.resources ?? [];

/** The page's items as received, so a skipped item can be recorded as it was. */
export function feedItemsOf(json: unknown): unknown[] {
  return itemsOf(readFeedPage(json));
}

/**
 * The `pagination` block; some facilitators put limit, offset and total beside the items
 * instead. Nothing else (a cursor, `hasMore`) states how many items the feed holds: those are
 * read as the page's continuation (readContinuation).
 */
function pagePagination(page: FeedPage): BazaarPagination | null {
  return page.pagination === undefined ? readPagination(page) : readPagination(page.pagination);
}

/**
 * Parses one page of a Bazaar discovery feed (`{ x402Version, items, pagination }`). A malformed
 * item is reported in `problems` and skipped; only a page that is not a feed answer throws.
 */
export function parseBazaarPage(json: unknown): BazaarPage {
  const page = readFeedPage(json);
  const pageVersion = typeof page.x402Version === "number" ? page.x402Version : null;
  const result: BazaarPage = {
    items: [],
    pagination: pagePagination(page),
    continuation: readContinuation(page),
    problems: [],
  };
  itemsOf(page).forEach((raw, index) => {
    const item = parseBazaarItem(raw, pageVersion);
    if (typeof item === "string") result.problems.push({ index, reason: item });
    else result.items.push(item);
  });
  return result;
}
