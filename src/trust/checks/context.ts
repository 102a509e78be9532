import { decimalToAtomic } from "../../payments/amount";
import type { PaymentDrift } from "../../payments/types";
import { type Check, check } from "../types";

/**
 * The checks that need more than one answer: the URL itself, our probes over seven days, the
 * listing the live terms are compared with, prices across the catalogue, and how long and how
 * exclusively the pay_to has been used. Everything comes in as plain values (gathered by
 * src/catalogue/trust-queries.ts), so these stay pure.
 */
export interface TrustContext {
  url: string;
  /** The latest challenge's differences from the listings; null when nothing was compared. */
  drift: PaymentDrift[] | null;
  /** Our probes over 7 days: count, share with an answer below 500 (0–1), p99 latency. */
  probes7d: { probes: number; uptime: number | null; p99Ms: number | null };
  /** Live and listed price per call in USDC (exact decimal strings), and the category's median live price. */
  prices: { live: string | null; listed: string | null; categoryMedian: string | null };
  /** Since when the live challenge has named its current pay_to addresses; null when never seen. */
  payToSince: Date | null;
  /** How many other domains are paid to one of its pay_to addresses; null without a pay_to. */
  payToSharedWith: number | null;
  now: Date;
}

export interface ContextThresholds {
  /** responsive passes at or above this 7-day uptime (0–1) and at or under p99Ms. */
  uptime: number;
  p99Ms: number;
  /** A price this many times the listing's or the category median's is a decoy. */
  decoyFactor: bigint;
  /** A price above this (USDC) is not sane whatever the listing says. */
  priceCapUsdc: string;
  stableDays: number;
}

export const CONTEXT_THRESHOLDS: ContextThresholds = {
  uptime: 0.99,
  p99Ms: 5_000,
  decoyFactor: 100n,
  priceCapUsdc: "100",
  stableDays: 30,
};

const DAY_MS = 24 * 60 * 60 * 1000;

function https(url: string): Check {
  const secure = URL.canParse(url) && new URL(url).protocol === "https:";
  return secure
    ? check("https", "pass", "served over https")
    : check("https", "fail", "not served over https", { url });
}

function matchesListing(drift: PaymentDrift[] | null): Check {
  if (drift === null)
    return check("matches_listing", "not_applicable", "no live challenge and listing to compare");
  if (drift.length === 0) return check("matches_listing", "pass", "the live challenge matches the listing");
  return check("matches_listing", "fail", drift.map((d) => d.message).join("; "), { differences: drift });
}

function responsive(stats: TrustContext["probes7d"], t: ContextThresholds): Check {
  const evidence = { probes: stats.probes, uptime: stats.uptime, p99_ms: stats.p99Ms };
  if (stats.probes === 0 || stats.uptime === null)
    return check("responsive", "not_applicable", "not probed in 7 days");
  const slow = stats.p99Ms !== null && stats.p99Ms > t.p99Ms;
  if (stats.uptime >= t.uptime && !slow)
    return check("responsive", "pass", "up and fast over 7 days", evidence);
  const why = [
    stats.uptime < t.uptime ? `uptime ${(stats.uptime * 100).toFixed(1)}% under ${t.uptime * 100}%` : null,
    slow ? `p99 ${Math.round(stats.p99Ms ?? 0)} ms over ${t.p99Ms} ms` : null,
  ].filter((s): s is string => s !== null);
  // Answering less than half the time is failing; otherwise it is a warning.
  return check("responsive", stats.uptime < 0.5 ? "fail" : "warn", why.join(", "), evidence);
}

/** USDC decimal → atomic bigint (6 decimals), null when not a decimal. */
const micros = (decimal: string | null): bigint | null => {
  const atomic = decimal === null ? null : decimalToAtomic(decimal, 6);
  return atomic === null ? null : BigInt(atomic);
};

function priceSane(prices: TrustContext["prices"], t: ContextThresholds): Check {
  const live = micros(prices.live);
  const evidence = {
    live_usdc: prices.live,
    listed_usdc: prices.listed,
    category_median_usdc: prices.categoryMedian,
  };
  if (live === null) return check("price_sane", "not_applicable", "no live USDC price", evidence);
  const cap = micros(t.priceCapUsdc) ?? 0n;
  if (live > cap)
    return check("price_sane", "fail", `live price over the ${t.priceCapUsdc} USDC cap`, evidence);
  const listed = micros(prices.listed);
  if (listed !== null && listed > 0n && live >= listed * t.decoyFactor)
    return check("price_sane", "fail", `live price ≥ ${t.decoyFactor}× the listed price`, evidence);
  const median = micros(prices.categoryMedian);
  if (median !== null && median > 0n && live >= median * t.decoyFactor)
    return check("price_sane", "fail", `live price ≥ ${t.decoyFactor}× the category median`, evidence);
  return check("price_sane", "pass", "live price in line with the listing and its category", evidence);
}

function stableTerms(since: Date | null, now: Date, t: ContextThresholds): Check {
  if (since === null) return check("stable_terms", "not_applicable", "no pay_to seen in a live challenge");
  const days = Math.floor((now.getTime() - since.getTime()) / DAY_MS);
  const evidence = { pay_to_since: since.toISOString(), days };
  if (days >= t.stableDays)
    return check("stable_terms", "pass", `pay_to unchanged for ${days} days`, evidence);
  return check("stable_terms", "warn", `pay_to unchanged for only ${days} of ${t.stableDays} days`, evidence);
}

function payToExclusive(shared: number | null): Check {
  if (shared === null) return check("pay_to_exclusive", "not_applicable", "no pay_to");
  const evidence = { other_domains: shared };
  if (shared === 0) return check("pay_to_exclusive", "pass", "no other origin is paid to it", evidence);
  // A handful can be one seller's domains; many means an aggregator or a reused address.
  return check(
    "pay_to_exclusive",
    shared >= 5 ? "fail" : "warn",
    `${shared} other domain${shared === 1 ? " is" : "s are"} paid to the same address`,
    evidence,
  );
}

export function contextChecks(
  context: TrustContext,
  thresholds: ContextThresholds = CONTEXT_THRESHOLDS,
): Check[] {
  return [
    matchesListing(context.drift),
    https(context.url),
    responsive(context.probes7d, thresholds),
    priceSane(context.prices, thresholds),
    stableTerms(context.payToSince, context.now, thresholds),
    payToExclusive(context.payToSharedWith),
  ];
}
