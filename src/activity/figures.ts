import { formatUsdcUnits, parseUsdcAmount } from "../billing/usdc-amount";
import {
  FLAG_RULES,
  type FlagRule,
  type ObservedTransfer,
  type TransferFlag,
  transferKey,
} from "./wash-rules";

/**
 * What the chain shows a pay_to, an endpoint or a service was paid (pure): raw and adjusted
 * (flagged transfers left out) over 24 h, 7 d and 30 d, a daily series, the flags with their
 * evidence, and the claims of directories and feeds beside the observed figures.
 */

export interface WindowFigures {
  /** Exact decimal USDC. */
  volume_usdc: string;
  tx_count: number;
  unique_payers: number;
}

export const WINDOWS = { "24h": 1, "7d": 7, "30d": 30 } as const;
export type WindowName = keyof typeof WINDOWS;

/** Claimed figures are suspect past this factor of the adjusted 30-day figures. */
export const CLAIM_FACTOR = 2;
/** Flagged transfers shown per rule (the count and volume cover all of them). */
export const FLAG_EXAMPLES = 10;

export interface FlaggedTransferJson {
  chain: string;
  tx_hash: string;
  log_index: number;
  payer: string;
  pay_to: string;
  value_usdc: string;
  at: string;
  evidence: string[];
  evidence_count: number;
}

export interface FlagSummaryJson {
  rule: FlagRule;
  transfer_count: number;
  volume_usdc: string;
  transfers: FlaggedTransferJson[];
}

/** A figure a directory or a feed publishes for the last 30 days. */
export interface Claim {
  source: "directory" | "feed";
  figure: "volume_usdc" | "tx_count" | "unique_payers";
  /** Exact decimal for volume, a whole number otherwise. */
  claimed: string;
  observed: string;
  /** claimed / adjusted observed, to 2 decimals; null when nothing was observed. */
  ratio: number | null;
}

export interface ClaimedFigures {
  directory: { volumeUsdc30d: string | null; txCount30d: number | null; uniquePayers30d: number | null };
  feed: { txCount30d: number | null; uniquePayers30d: number | null };
}

export interface ObservedJson {
  pay_to: Array<{ chain: string; address: string }>;
  /** Other catalogue entries that publish one of these pay_tos: their payments are counted for each. */
  shared_with: string[];
  raw: Record<WindowName, WindowFigures>;
  adjusted: Record<WindowName, WindowFigures>;
  last_payment_at: string | null;
  flags: FlagSummaryJson[];
  claims: Claim[];
  /** The largest claim ratio; null when nothing is claimed or observed. */
  claim_ratio: number | null;
  warnings: Array<"claims_exceed_observed">;
  computed_at: string;
}

export interface DailyFigures {
  day: string;
  raw: WindowFigures;
  adjusted: WindowFigures;
}

const DAY_MS = 86_400_000;

function figuresOf(payments: readonly ObservedTransfer[]): WindowFigures {
  return {
    volume_usdc: formatUsdcUnits(payments.reduce((sum, payment) => sum + payment.value, 0n)),
    tx_count: payments.length,
    unique_payers: new Set(payments.map((payment) => payment.from)).size,
  };
}

function windowsOf(payments: readonly ObservedTransfer[], asOf: Date): Record<WindowName, WindowFigures> {
  const within = (days: number) =>
    payments.filter((payment) => {
      const at = payment.blockTime.getTime();
      return at > asOf.getTime() - days * DAY_MS && at <= asOf.getTime();
    });
  return {
    "24h": figuresOf(within(WINDOWS["24h"])),
    "7d": figuresOf(within(WINDOWS["7d"])),
    "30d": figuresOf(within(WINDOWS["30d"])),
  };
}

/** claimed / observed to 2 decimals, in integers first so large volumes stay exact enough. */
function ratioOf(claimed: bigint, observed: bigint): number | null {
  return observed > 0n ? Number((claimed * 100n) / observed) / 100 : null;
}

function claimsOf(claimed: ClaimedFigures, adjusted: WindowFigures): Claim[] {
  const observedVolume = parseUsdcAmount(adjusted.volume_usdc) ?? 0n;
  const claims: Claim[] = [];
  const volume =
    claimed.directory.volumeUsdc30d === null ? null : parseUsdcAmount(claimed.directory.volumeUsdc30d);
  if (volume !== null) {
    claims.push({
      source: "directory",
      figure: "volume_usdc",
      claimed: formatUsdcUnits(volume),
      observed: adjusted.volume_usdc,
      ratio: ratioOf(volume, observedVolume),
    });
  }
  const counts: Array<[Claim["source"], Claim["figure"], number | null, number]> = [
    ["directory", "tx_count", claimed.directory.txCount30d, adjusted.tx_count],
    ["directory", "unique_payers", claimed.directory.uniquePayers30d, adjusted.unique_payers],
    ["feed", "tx_count", claimed.feed.txCount30d, adjusted.tx_count],
    ["feed", "unique_payers", claimed.feed.uniquePayers30d, adjusted.unique_payers],
  ];
  for (const [source, figure, value, observed] of counts) {
    if (value === null) continue;
    claims.push({
      source,
      figure,
      claimed: String(value),
      observed: String(observed),
      ratio: ratioOf(BigInt(value), BigInt(observed)),
    });
  }
  return claims;
}

/** A claim past CLAIM_FACTOR × the adjusted figure, or any positive claim where nothing was observed. */
export function claimExceeds(claim: Claim): boolean {
  const claimed =
    claim.figure === "volume_usdc" ? (parseUsdcAmount(claim.claimed) ?? 0n) : BigInt(claim.claimed);
  const observed =
    claim.figure === "volume_usdc" ? (parseUsdcAmount(claim.observed) ?? 0n) : BigInt(claim.observed);
  return claimed > observed * BigInt(CLAIM_FACTOR);
}

function flagSummaries(
  payments: readonly ObservedTransfer[],
  flags: ReadonlyMap<string, readonly TransferFlag[]>,
): FlagSummaryJson[] {
  const summaries: FlagSummaryJson[] = [];
  for (const rule of FLAG_RULES) {
    const hits = payments.flatMap((payment) => {
      const flag = flags.get(transferKey(payment))?.find((candidate) => candidate.rule === rule);
      return flag ? [{ payment, flag }] : [];
    });
    if (hits.length === 0) continue;
    summaries.push({
      rule,
      transfer_count: hits.length,
      volume_usdc: formatUsdcUnits(hits.reduce((sum, hit) => sum + hit.payment.value, 0n)),
      transfers: hits
        .slice(-FLAG_EXAMPLES)
        .reverse()
        .map(({ payment, flag }) => ({
          chain: payment.chain,
          tx_hash: payment.txHash,
          log_index: payment.logIndex,
          payer: payment.from,
          pay_to: payment.to,
          value_usdc: formatUsdcUnits(payment.value),
          at: payment.blockTime.toISOString(),
          evidence: flag.transactions,
          evidence_count: flag.transactionCount,
        })),
    });
  }
  return summaries;
}

export interface ObservedInput {
  /** The payments to the group's pay_tos, in chain order. */
  payments: readonly ObservedTransfer[];
  flags: ReadonlyMap<string, readonly TransferFlag[]>;
  payTo: Array<{ chain: string; address: string }>;
  sharedWith: string[];
  claimed: ClaimedFigures;
  asOf: Date;
}

export function observedOf(input: ObservedInput): ObservedJson {
  const { payments, flags, asOf } = input;
  const clean = payments.filter((payment) => !flags.has(transferKey(payment)));
  const adjusted = windowsOf(clean, asOf);
  const claims = claimsOf(input.claimed, adjusted["30d"]);
  const ratios = claims.flatMap((claim) => (claim.ratio === null ? [] : [claim.ratio]));
  const last = payments.reduce<Date | null>(
    (latest, payment) => (latest === null || payment.blockTime > latest ? payment.blockTime : latest),
    null,
  );
  return {
    pay_to: input.payTo,
    shared_with: input.sharedWith,
    raw: windowsOf(payments, asOf),
    adjusted,
    last_payment_at: last?.toISOString() ?? null,
    flags: flagSummaries(payments, flags),
    claims,
    claim_ratio: ratios.length > 0 ? Math.max(...ratios) : null,
    warnings: claims.some(claimExceeds) ? ["claims_exceed_observed"] : [],
    computed_at: asOf.toISOString(),
  };
}

/** Raw and adjusted figures per UTC day that had a payment, oldest first. */
export function dailyOf(
  payments: readonly ObservedTransfer[],
  flags: ReadonlyMap<string, readonly TransferFlag[]>,
): DailyFigures[] {
  const days = new Map<string, ObservedTransfer[]>();
  for (const payment of payments) {
    const day = payment.blockTime.toISOString().slice(0, 10);
    const list = days.get(day);
    if (list) list.push(payment);
    else days.set(day, [payment]);
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, list]) => ({
      day,
      raw: figuresOf(list),
      adjusted: figuresOf(list.filter((payment) => !flags.has(transferKey(payment)))),
    }));
}
