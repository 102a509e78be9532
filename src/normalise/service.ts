import type { ListingEntry, RawEndpoint, RawServiceDetail } from "../extract/types";
import { parseDate } from "./dates";
import { parseCount, parseDurationMs, parsePercent, parseUsdcAmount } from "./numbers";
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
  method: HttpMethod;
  /** Absolute http(s) URL without fragment. */
  url: string;
  description: string | null;
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
  const endpoints = normaliseEndpoints(raw.endpoints, pageUrl, log);
  const domain = resolveDomain(raw, endpoints, listing, log);
  const service: NormalisedService = {
    name: visibleText(raw.name) ?? visibleText(listing?.name) ?? domain,
    domain,
    description: visibleText(raw.description) ?? visibleText(listing?.description),
    category: normaliseCategory(raw.category),
    endpoints: endpoints.map(({ endpoint }) => endpoint),
    tags: normaliseTags(raw.tags),
    stats: normaliseStats(raw.stats, log, options),
  };
  return { service, problems: log.problems };
}

/** Collapsed text, or null for empty text and placeholders such as "—" or "N/A". */
function visibleText(text: string | null | undefined): string | null {
  return isMissing(text) ? null : collapseWhitespace(text);
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

interface ReadEndpoint {
  endpoint: NormalisedEndpoint;
  /** Whether the page gave a full URL; only such URLs say which host the service runs on. */
  writtenAbsolute: boolean;
}

/** Has a scheme ("https:") or is protocol-relative ("//host/…"). */
const ABSOLUTE_REFERENCE = /^\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Endpoints with a readable method and URL, in page order, first occurrence kept. An endpoint
 * without a usable method is not stored (the method is part of its identity) and is reported.
 */
function normaliseEndpoints(
  rawEndpoints: readonly RawEndpoint[],
  pageUrl: string,
  log: ProblemLog,
): ReadEndpoint[] {
  const byKey = new Map<string, ReadEndpoint>();
  rawEndpoints.forEach((rawEndpoint, index) => {
    const read = readEndpoint(rawEndpoint, `endpoints[${index}]`, pageUrl, log);
    if (read === null) return;
    const key = `${read.endpoint.method} ${read.endpoint.url}`;
    const earlier = byKey.get(key);
    if (earlier === undefined) byKey.set(key, read);
    // A repeat can still carry the description the first listing of the endpoint lacked.
    else earlier.endpoint.description ??= read.endpoint.description;
  });
  return [...byKey.values()];
}

function readEndpoint(
  raw: RawEndpoint,
  field: string,
  pageUrl: string,
  log: ProblemLog,
): ReadEndpoint | null {
  const method = normaliseMethod(raw.method);
  if (method.kind === "missing") log.report(`${field}.method`, raw.method ?? "", "no HTTP method shown");
  const methodValue = log.read(`${field}.method`, method);
  const url = absoluteUrl(raw.url, pageUrl);
  if (url.kind === "missing") log.report(`${field}.url`, raw.url, "no URL shown");
  const urlValue = log.read(`${field}.url`, url);
  if (methodValue === null || urlValue === null) return null;
  return {
    endpoint: { method: methodValue, url: urlValue, description: visibleText(raw.description) },
    writtenAbsolute: ABSOLUTE_REFERENCE.test(raw.url),
  };
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
  endpoints: readonly ReadEndpoint[],
  listing: ListingSummary | undefined,
  log: ProblemLog,
): string | null {
  const fromPage = log.read("domain", parseDomain(raw.domain));
  if (fromPage !== null) return fromPage;
  const firstAbsolute = endpoints.find((read) => read.writtenAbsolute);
  if (firstAbsolute !== undefined) return new URL(firstAbsolute.endpoint.url).hostname;
  return log.read("listing.domain", parseDomain(listing?.domain));
}
