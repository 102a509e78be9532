import type { ListingEntry, RawEndpoint, RawServiceDetail } from "../extract/types";
import type { MCP_METHOD } from "../mcp-tools/tool-url";
import type { CallDescription } from "../payments/call-description";
import { parseDate } from "./dates";
import { parseCount, parseDurationMs, parsePercent, parseUsdcAmount } from "./numbers";
import type { SelfReported } from "./self-reported";
import {
  absoluteUrl,
  collapseWhitespace,
  type HttpMethod,
  isMissing,
  normaliseCategory,
  normaliseMethod,
  normaliseTags,
  parseDomain,
} from "./text";
import type { FieldProblem, Parsed } from "./types";

export type { FieldProblem } from "./types";

export interface NormalisedEndpoint {
  /** An HTTP method, or MCP for a tool of an MCP server (src/mcp-tools/tool-url.ts). */
  method: HttpMethod | typeof MCP_METHOD;
  /** Absolute http(s) URL without fragment; an MCP tool's has the tool's name as fragment. */
  url: string;
  description: string | null;
  /** How to call it, when the source publishes that (discovery feeds); stored as published. */
  call?: CallDescription | null;
  /** What a feed says about it on its seller's behalf (name, tags, icon, usage), unchecked. */
  selfReported?: SelfReported | null;
}

/** The 30-day figures of a detail page. null = not shown, or shown but unreadable (then reported). */
export interface NormalisedStats {
  /** Percent, 0..100. */
  uptime30d: number | null;
  avgResponseMs30d: number | null;
  infoUpdatedAt: Date | null;
  /** Exact decimal string, e.g. "12345.67": never a float. */
  volumeUsdc30d: string | null;
  txCount30d: number | null;
  payerCount30d: number | null;
}

export interface NormalisedService {
  /** Detail page name, else listing name, else the domain; null only when none is known. */
  name: string | null;
  /** Lower-case host name. */
  domain: string | null;
  description: string | null;
  category: string | null;
  /** In page order, unique on method + URL. */
  endpoints: NormalisedEndpoint[];
  tags: string[];
  stats: NormalisedStats;
}

/** What the listing page said about the service, used where the detail page is silent. */
export type ListingSummary = Pick<ListingEntry, "name" | "domain" | "description">;

export interface NormaliseServiceOptions {
  /** Time the page was read; lets "updated 3 hours ago" become a date. */
  now?: Date;
}

export interface NormalisedServiceResult {
  service: NormalisedService;
  problems: FieldProblem[];
}

/** tx_count_30d and payer_count_30d are INTEGER columns; a larger count cannot be stored as is. */
const MAX_STORED_COUNT = 2_147_483_647;

/** Collects problems for one page; `read` turns a parse result into a value or null. */
class ProblemLog {
  readonly problems: FieldProblem[] = [];

  constructor(private readonly page: string) {}

  report(field: string, text: string, reason: string): void {
    this.problems.push({ field, page: this.page, text, reason });
  }

  read<T>(field: string, parsed: Parsed<T>): T | null {
    if (parsed.kind === "value") return parsed.value;
    if (parsed.kind === "invalid") this.report(field, parsed.raw, parsed.reason);
    return null;
  }
}

/**
 * Turns the raw text of a detail page into catalogue values. Nothing is guessed: an unreadable
 * value becomes null plus one FieldProblem naming the page, the field and the exact text.
 */
export function normaliseServiceDetail(
  raw: RawServiceDetail,
  pageUrl: string,
  listing?: ListingSummary,
  options: NormaliseServiceOptions = {},
): NormalisedServiceResult {
  const log = new ProblemLog(pageUrl);
  const domain = resolveDomain(raw, pageUrl, listing, log);
  // A relative endpoint URL ("/v1/quote") is a path on the service's own host, not on the
  // directory's: directories print paths under the service's base URL.
  const endpoints = normaliseEndpoints(raw.endpoints, domain ? `https://${domain}/` : pageUrl, log);
  const name = visibleText(raw.name) ?? visibleText(listing?.name) ?? domain;
  const service: NormalisedService = {
    name,
    domain,
    description:
      readDescription(raw.description, "description", [name, domain], log) ??
      readDescription(listing?.description, "listing.description", [name, domain], log),
    category: normaliseCategory(raw.category),
    endpoints,
    tags: normaliseTags(raw.tags),
    stats: normaliseStats(raw.stats, log, options),
  };
  return { service, problems: log.problems };
}

/** Collapsed text, or null for empty text and placeholders such as "—" or "N/A". */
function visibleText(text: string | null | undefined): string | null {
  return isMissing(text) ? null : collapseWhitespace(text);
}

/**
 * A description however short, unless it only repeats the name or domain (a card printing the
 * name twice): that is discarded and reported, like every value the catalogue does not keep.
 */
function readDescription(
  text: string | null | undefined,
  field: string,
  known: readonly (string | null)[],
  log: ProblemLog,
): string | null {
  const value = visibleText(text);
  if (value === null) return null;
  const repeated = known.find((k) => k !== null && k.toLowerCase() === value.toLowerCase());
  if (repeated === undefined) return value;
  log.report(field, value, "repeats the service's name or domain, not a description");
  return null;
}

function normaliseStats(
  stats: RawServiceDetail["stats"],
  log: ProblemLog,
  options: NormaliseServiceOptions,
): NormalisedStats {
  return {
    uptime30d: log.read("stats.uptime30d", parsePercent(stats.uptime30d)),
    avgResponseMs30d: log.read("stats.avgResponse30d", parseDurationMs(stats.avgResponse30d)),
    infoUpdatedAt: log.read("stats.infoUpdated", parseDate(stats.infoUpdated, { now: options.now })),
    volumeUsdc30d: log.read("stats.volume30d", parseUsdcAmount(stats.volume30d)),
    txCount30d: log.read("stats.txCount30d", storableCount(stats.txCount30d)),
    payerCount30d: log.read("stats.payerCount30d", storableCount(stats.payerCount30d)),
  };
}

function storableCount(text: string | undefined): Parsed<number> {
  const parsed = parseCount(text);
  if (parsed.kind === "value" && parsed.value > MAX_STORED_COUNT) {
    return { kind: "invalid", raw: text ?? "", reason: "count is larger than the catalogue can store" };
  }
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// Endpoints

/** Has a scheme ("https:") or is protocol-relative ("//host/…"). */
const ABSOLUTE_REFERENCE = /^\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Endpoints with a readable method and URL, in page order, first occurrence kept. An endpoint
 * without a usable method is not stored (the method is part of its identity) and is reported.
 */
function normaliseEndpoints(
  rawEndpoints: readonly RawEndpoint[],
  baseUrl: string,
  log: ProblemLog,
): NormalisedEndpoint[] {
  const byKey = new Map<string, NormalisedEndpoint>();
  rawEndpoints.forEach((rawEndpoint, index) => {
    const endpoint = readEndpoint(rawEndpoint, `endpoints[${index}]`, baseUrl, log);
    if (endpoint === null) return;
    const key = `${endpoint.method} ${endpoint.url}`;
    const earlier = byKey.get(key);
    if (earlier === undefined) byKey.set(key, endpoint);
    // A repeat can still carry the description the first listing of the endpoint lacked.
    else earlier.description ??= endpoint.description;
  });
  return [...byKey.values()];
}

function readEndpoint(
  raw: RawEndpoint,
  field: string,
  baseUrl: string,
  log: ProblemLog,
): NormalisedEndpoint | null {
  const method = normaliseMethod(raw.method);
  if (method.kind === "missing") log.report(`${field}.method`, raw.method ?? "", "no HTTP method shown");
  const methodValue = log.read(`${field}.method`, method);
  const url = absoluteUrl(raw.url, baseUrl);
  if (url.kind === "missing") log.report(`${field}.url`, raw.url, "no URL shown");
  const urlValue = log.read(`${field}.url`, url);
  if (methodValue === null || urlValue === null) return null;
  return { method: methodValue, url: urlValue, description: visibleText(raw.description) };
}

// ---------------------------------------------------------------------------------------------
// Domain

/**
 * The domain the detail page shows; else the host of the first endpoint written as a full URL (a
 * relative one only repeats the directory's own host); else the listing's domain. An unreadable
 * candidate is reported and the next one tried.
 */
function resolveDomain(
  raw: RawServiceDetail,
  pageUrl: string,
  listing: ListingSummary | undefined,
  log: ProblemLog,
): string | null {
  const fromPage = log.read("domain", parseDomain(raw.domain));
  if (fromPage !== null) return fromPage;
  for (const endpoint of raw.endpoints) {
    if (!ABSOLUTE_REFERENCE.test(endpoint.url)) continue;
    const url = absoluteUrl(endpoint.url, pageUrl);
    if (url.kind === "value") return new URL(url.value).hostname;
  }
  return log.read("listing.domain", parseDomain(listing?.domain));
}
