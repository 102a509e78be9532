import { compareDecimals, type ExactDecimal, parseUnsignedDecimal } from "../normalise/decimal";

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
