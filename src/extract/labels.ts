import type { StatField } from "./types";

/**
 * Maps a visible label ("Uptime · 30d", "# of transactions", "Avg. response (30d)") to the field
 * it names. Directories reword and restyle labels all the time, so matching works on words, not
 * on exact strings: a label matches a field when it contains one of the field's key words and
 * every other word is either a modifier allowed for that field or filler (periods, units,
 * "total", "count"…). Labels naming another period ("Uptime (7d)", "All-time volume") are
 * rejected, because they do not measure the 30 days we store.
 */

export type LabelField = StatField | "category" | "tags" | "endpoints" | "name" | "domain" | "description";

/** Extra wording per field, e.g. from a per-site config override. Matched after the same normalising. */
export type LabelAliases = Partial<Record<LabelField, string[]>>;

/** Options of `extractDetail` and `extractListing`. */
export interface ExtractOptions {
  /** Extra label wording for this site, from config. */
  aliases?: LabelAliases;
}

export const STAT_FIELDS: readonly StatField[] = [
  "uptime30d",
  "avgResponse30d",
  "infoUpdated",
  "volume30d",
  "txCount30d",
  "payerCount30d",
];

export function isStatField(field: LabelField): field is StatField {
  return (STAT_FIELDS as readonly string[]).includes(field);
}

interface Rule {
  field: LabelField;
  keys: ReadonlySet<string>;
  modifiers: ReadonlySet<string>;
}

const rule = (field: LabelField, keys: string[], modifiers: string[]): Rule => ({
  field,
  keys: new Set(keys),
  modifiers: new Set(modifiers),
});

const RULES: readonly Rule[] = [
  rule(
    "uptime30d",
    ["uptime", "availability"],
    ["service", "api", "overall", "average", "avg", "rate", "measured", "observed"],
  ),
  rule(
    "avgResponse30d",
    ["response", "resp", "latency"],
    ["avg", "average", "mean", "median", "time", "times", "api", "overall", "typical", "server"],
  ),
  rule(
    "infoUpdated",
    ["updated", "update", "refreshed", "modified"],
    [
      "information",
      "info",
      "data",
      "listing",
      "stats",
      "statistics",
      "details",
      "page",
      "date",
      "on",
      "at",
      "time",
    ],
  ),
  rule(
    "volume30d",
    ["volume", "revenue"],
    [
      "transaction",
      "transactions",
      "tx",
      "txn",
      "txns",
      "trading",
      "usdc",
      "usd",
      "payment",
      "payments",
      "paid",
      "sales",
      "onchain",
    ],
  ),
  rule(
    "txCount30d",
    ["transactions", "transaction", "txns", "txn", "tx", "txs", "payments", "calls", "requests", "purchases"],
    ["paid", "successful", "onchain", "usdc", "settled", "x402"],
  ),
  rule(
    "payerCount30d",
    ["payers", "payer", "buyers", "buyer", "wallets", "wallet", "customers", "addresses", "address", "users"],
    ["unique", "distinct", "paying", "active"],
  ),
  rule("category", ["category", "categories"], ["service", "primary", "main"]),
  rule("tags", ["tags", "tag", "keywords", "labels", "topics", "hashtags"], ["service", "related"]),
  rule(
    "endpoints",
    ["endpoints", "endpoint", "resources", "routes", "paths", "operations"],
    ["api", "available", "http", "service", "paid", "x402", "list"],
  ),
  rule("name", ["name", "title"], ["service", "display", "api"]),
  rule(
    "domain",
    ["domain", "host", "hostname", "website", "homepage", "site", "url"],
    ["service", "api", "base", "web", "main", "official"],
  ),
  rule(
    "description",
    ["description", "summary", "about", "overview"],
    ["service", "short", "api", "this", "full"],
  ),
];

/** Words that carry no meaning in a label: the 30-day period, units, counting words. */
const FILLER = new Set([
  "the",
  "of",
  "in",
  "over",
  "during",
  "for",
  "last",
  "past",
  "rolling",
  "a",
  "month",
  "monthly",
  "thirty",
  "day",
  "days",
  "percent",
  "pct",
  "ms",
  "number",
  "no",
  "nr",
  "count",
  "total",
  "usdc",
]);

/** Words that name a period other than 30 days. */
const OTHER_PERIOD_WORDS = new Set([
  "hourly",
  "daily",
  "weekly",
  "yearly",
  "annual",
  "annually",
  "lifetime",
  "alltime",
  "ytd",
  "today",
  "week",
  "year",
  "hour",
  "hours",
]);

const PERIOD =
  /\b(\d+)\s*(d|days?|h|hrs?|hours?|w|wks?|weeks?|m|mins?|minutes?|mos?|months?|y|yrs?|years?)\b/g;

/**
 * "Latency (p50)" is the median, which the response-time field accepts; any other percentile
 * ("p95", "p99.9") measures the slow tail, a different figure that must not pass for the average.
 */
const MEDIAN = /^p50$/;
const PERCENTILE = /^p\d{1,3}$/;

/** Labels are short; anything longer is a sentence that merely mentions a word like "volume". */
const MAX_LABEL_WORDS = 10;
const MAX_MEANINGFUL_WORDS = 4;

/** Lower-case words of a label with punctuation removed; "#" reads as "number". */
function words(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[([]\s*\d+\s*[)\]]/g, " ") // "Endpoints (8)": a count, not part of the label
    .replace(/#/g, " number ")
    .replace(/%/g, " percent ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The meaningful words of a label, or null when it cannot be a label of ours (too long, names
 * another period, or still contains a number after removing the period).
 */
export function labelTokens(text: string): string[] | null {
  let s = words(text);
  if (!s || s.split(" ").length > MAX_LABEL_WORDS) return null;
  let otherPeriod = false;
  s = s.replace(PERIOD, (_match, amount: string, unit: string) => {
    const n = Number(amount);
    const isDays = /^d/.test(unit);
    const isMonths = /^mo/.test(unit);
    if (!((isDays && n === 30) || (isMonths && n === 1))) otherPeriod = true;
    return " ";
  });
  if (otherPeriod) return null;
  const tokens = s
    .split(" ")
    .filter((t) => t !== "")
    .map((t) => (MEDIAN.test(t) ? "median" : t));
  if (tokens.some((t) => OTHER_PERIOD_WORDS.has(t) || PERCENTILE.test(t))) return null;
  if (tokens.join(" ").includes("all time")) return null;
  const meaningful = tokens.filter((t) => !FILLER.has(t));
  if (meaningful.length === 0 || meaningful.length > MAX_MEANINGFUL_WORDS) return null;
  if (meaningful.some((t) => /\d/.test(t))) return null;
  return meaningful;
}

/** A label reduced to plain lower-case words, for comparing with configured aliases verbatim. */
function looseKey(text: string): string {
  return words(text).replace(/\s+/g, " ");
}

function matchesAlias(text: string, tokens: string[] | null, aliases: LabelAliases): LabelField | null {
  const loose = looseKey(text);
  const key = tokens?.join(" ");
  for (const [field, list] of Object.entries(aliases) as [LabelField, string[] | undefined][]) {
    for (const alias of list ?? []) {
      if (looseKey(alias) === loose) return field;
      const aliasTokens = labelTokens(alias);
      if (key !== undefined && aliasTokens && aliasTokens.join(" ") === key) return field;
    }
  }
  return null;
}

/**
 * Pages ask about the same few hundred strings over and over (every element's text is a label
 * candidate), so answers are memoised per alias set. The cache is bounded and only ever holds
 * results of this pure function, so it cannot change behaviour.
 */
const MAX_CACHED = 20_000;
const NO_ALIASES: LabelAliases = {};
const caches = new WeakMap<LabelAliases, Map<string, LabelField | null>>();

/** The field a visible label names, or null when it names nothing we extract. */
export function classifyLabel(text: string, aliases: LabelAliases = NO_ALIASES): LabelField | null {
  const key = Object.keys(aliases).length === 0 ? NO_ALIASES : aliases;
  let cache = caches.get(key);
  if (!cache) {
    cache = new Map();
    caches.set(key, cache);
  }
  const cached = cache.get(text);
  if (cached !== undefined) return cached;
  const field = classifyUncached(text, key);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(text, field);
  return field;
}

function classifyUncached(text: string, aliases: LabelAliases): LabelField | null {
  if (text.length > 120) return null;
  const tokens = labelTokens(text);
  const aliased = matchesAlias(text, tokens, aliases);
  if (aliased) return aliased;
  if (!tokens) return null;
  // A bare "Service" label names the service itself.
  if (tokens.length === 1 && tokens[0] === "service") return "name";
  for (const r of RULES) {
    if (tokens.some((t) => r.keys.has(t)) && tokens.every((t) => r.keys.has(t) || r.modifiers.has(t))) {
      return r.field;
    }
  }
  return null;
}
