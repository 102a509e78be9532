import type { ConfirmedTransfer } from "../chain/usdc-transfers";

/**
 * The rules that flag a payment as self-dealing, in one pure module (docs/agents.md, "Observed
 * volume"). A payment is a USDC transfer to a watched pay_to; the transfers out of watched
 * pay_tos are read too, because they are the evidence of round trips and funding. Every flag
 * names its rule and the transactions that triggered it, so a reader can check it on chain.
 */

export const FLAG_RULES = ["self_payment", "round_trip", "funded_by_pay_to", "concentration"] as const;
export type FlagRule = (typeof FLAG_RULES)[number];

/** One Transfer log with its chain and block time; addresses are lower-case, value in micro-USDC. */
export type ObservedTransfer = ConfirmedTransfer;

export interface TransferFlag {
  rule: FlagRule;
  /** The transactions that triggered the rule, at most EVIDENCE_LIMIT of them. */
  transactions: string[];
  /** How many transactions triggered it in all. */
  transactionCount: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The pay_to sent the payer at least this share of what it paid, within ROUND_TRIP_MS of a payment. */
export const ROUND_TRIP_SHARE = { numerator: 1n, denominator: 2n };
export const ROUND_TRIP_MS = DAY_MS;
/** The payer received USDC from the pay_to at most this long before it paid. */
export const FUNDING_MS = 7 * DAY_MS;
/** One payer made at least this share of a pay_to's 30-day volume, over at least CONCENTRATION_PAYMENTS payments. */
export const CONCENTRATION_SHARE = { numerator: 4n, denominator: 5n };
export const CONCENTRATION_PAYMENTS = 20;
export const CONCENTRATION_WINDOW_MS = 30 * DAY_MS;
export const EVIDENCE_LIMIT = 10;

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** (chain, transaction, log index): a transfer's identity. */
export function transferKey(transfer: Pick<ObservedTransfer, "chain" | "txHash" | "logIndex">): string {
  return `${transfer.chain}:${transfer.txHash}:${transfer.logIndex}`;
}

/** On-chain order: earlier block first, then earlier log. */
function before(a: ObservedTransfer, b: ObservedTransfer): boolean {
  return a.blockNumber === b.blockNumber ? a.logIndex < b.logIndex : a.blockNumber < b.blockNumber;
}

/** A transfer to a watched pay_to that is a payment: a mint (from the zero address) is not. */
export function isPayment(
  transfer: ObservedTransfer,
  watched: ReadonlyMap<string, readonly string[]>,
): boolean {
  return watched.has(transfer.to) && transfer.from !== ZERO_ADDRESS;
}

/** part / whole >= share, in integers (money is never a float). */
function atLeastShare(
  part: bigint,
  whole: bigint,
  share: { numerator: bigint; denominator: bigint },
): boolean {
  return whole > 0n && part * share.denominator >= whole * share.numerator;
}

function flagOf(rule: FlagRule, hashes: Iterable<string>): TransferFlag {
  const unique = [...new Set(hashes)];
  return { rule, transactions: unique.slice(0, EVIDENCE_LIMIT), transactionCount: unique.length };
}

function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * The flags of every payment among `transfers` (all of one chain, to and from watched pay_tos),
 * by transferKey. `watched` maps each watched pay_to to the services that publish it.
 * The concentration window ends at `asOf`.
 */
export function flagTransfers(
  transfers: readonly ObservedTransfer[],
  watched: ReadonlyMap<string, readonly string[]>,
  asOf: Date,
): Map<string, TransferFlag[]> {
  const flags = new Map<string, TransferFlag[]>();
  const add = (payment: ObservedTransfer, flag: TransferFlag) => {
    const key = transferKey(payment);
    const list = flags.get(key);
    if (list) list.push(flag);
    else flags.set(key, [flag]);
  };
  const payments = transfers.filter((transfer) => isPayment(transfer, watched));
  // Transfers from a pay_to to an address, by "pay_to>address": returns and funding.
  const outflows = groupBy(
    transfers.filter((transfer) => watched.has(transfer.from)),
    (transfer) => `${transfer.from}>${transfer.to}`,
  );
  const byPair = groupBy(payments, (payment) => `${payment.to}>${payment.from}`);

  for (const payment of payments) {
    if (isSelfPayment(payment, watched)) add(payment, flagOf("self_payment", [payment.txHash]));
    const funding = (outflows.get(`${payment.to}>${payment.from}`) ?? []).filter(
      (out) => before(out, payment) && payment.blockTime.getTime() - out.blockTime.getTime() <= FUNDING_MS,
    );
    if (funding.length > 0)
      add(
        payment,
        flagOf(
          "funded_by_pay_to",
          funding.map((out) => out.txHash),
        ),
      );
  }
  for (const [pair, paid] of byPair) {
    const returns = roundTripReturns(paid, outflows.get(pair) ?? []);
    if (returns) for (const payment of paid) add(payment, flagOf("round_trip", returns));
  }
  for (const payment of concentratedPayments(payments, asOf)) {
    add(payment.payment, flagOf("concentration", payment.evidence));
  }
  return flags;
}

/** The payer is the pay_to itself, or another pay_to of a service that publishes this one. */
function isSelfPayment(payment: ObservedTransfer, watched: ReadonlyMap<string, readonly string[]>): boolean {
  if (payment.from === payment.to) return true;
  const payerServices = watched.get(payment.from);
  if (!payerServices) return false;
  const payeeServices = new Set(watched.get(payment.to));
  return payerServices.some((service) => payeeServices.has(service));
}

/**
 * A payer's payments to one pay_to (`paid`) and that pay_to's transfers back to the payer:
 * the hashes of the returns sent within ROUND_TRIP_MS after a payment, when they add up to at
 * least ROUND_TRIP_SHARE of what the payer paid; null otherwise.
 */
function roundTripReturns(
  paid: readonly ObservedTransfer[],
  back: readonly ObservedTransfer[],
): string[] | null {
  const paidValue = paid.reduce((sum, payment) => sum + payment.value, 0n);
  const returns = back.filter((out) =>
    paid.some(
      (payment) =>
        before(payment, out) && out.blockTime.getTime() - payment.blockTime.getTime() <= ROUND_TRIP_MS,
    ),
  );
  const returned = returns.reduce((sum, out) => sum + out.value, 0n);
  return returns.length > 0 && atLeastShare(returned, paidValue, ROUND_TRIP_SHARE)
    ? returns.map((out) => out.txHash)
    : null;
}

/** The payments of each pay_to's dominant payer in the 30 days up to `asOf`, with their own hashes as evidence. */
function concentratedPayments(
  payments: readonly ObservedTransfer[],
  asOf: Date,
): Array<{ payment: ObservedTransfer; evidence: string[] }> {
  const start = asOf.getTime() - CONCENTRATION_WINDOW_MS;
  const inWindow = payments.filter(
    (payment) => payment.blockTime.getTime() > start && payment.blockTime.getTime() <= asOf.getTime(),
  );
  const found: Array<{ payment: ObservedTransfer; evidence: string[] }> = [];
  for (const received of groupBy(inWindow, (payment) => payment.to).values()) {
    const total = received.reduce((sum, payment) => sum + payment.value, 0n);
    for (const fromPayer of groupBy(received, (payment) => payment.from).values()) {
      const share = fromPayer.reduce((sum, payment) => sum + payment.value, 0n);
      if (atLeastShare(share, total, CONCENTRATION_SHARE) && fromPayer.length >= CONCENTRATION_PAYMENTS) {
        const evidence = fromPayer.map((payment) => payment.txHash);
        for (const payment of fromPayer) found.push({ payment, evidence });
      }
    }
  }
  return found;
}
