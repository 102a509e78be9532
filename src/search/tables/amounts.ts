import { compareDecimals, type ExactDecimal, parseUnsignedDecimal } from "../../normalise/decimal";

/**
 * A decimal amount (volume, price) compared exactly but cheaply: the correctly rounded double
 * decides whenever it differs (rounding is monotonic, so different doubles order the same way as
 * the exact values); only equal doubles fall back to comparing the exact digits.
 */
export interface Amount {
  approx: number;
  exact: ExactDecimal;
}

/** Plain decimal text, as Postgres prints numeric and as the API's decimal parameters accept it. */
export function amountOf(text: string): Amount {
  const parsed = parseUnsignedDecimal(text);
  if (!parsed.ok) throw new Error(`not a decimal amount: ${parsed.reason}`);
  return { approx: Number(text), exact: parsed.decimal };
}

export function compareAmounts(a: Amount, b: Amount): number {
  if (a.approx !== b.approx) return a.approx < b.approx ? -1 : 1;
  return compareDecimals(a.exact, b.exact);
}

/** Equal amounts; a missing amount equals only a missing one. */
export function sameAmount(a: Amount | null, b: Amount | null): boolean {
  return a === null || b === null ? a === b : compareAmounts(a, b) === 0;
}

/** The lowest of the amounts; null when there is none. */
export function lowestAmount(amounts: Iterable<Amount | null>): Amount | null {
  let lowest: Amount | null = null;
  for (const amount of amounts) {
    if (amount !== null && (lowest === null || compareAmounts(amount, lowest) < 0)) lowest = amount;
  }
  return lowest;
}
