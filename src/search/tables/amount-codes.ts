import { type Amount, amountOf, compareAmounts } from "./amounts";

/**
 * Prices as small integer codes: a catalogue of hundreds of thousands of endpoints has a few
 * thousand distinct prices, so each endpoint holds codes (4 bytes) rather than an Amount object,
 * and the codes' order (exact decimal order, computed over the distinct amounts only) makes a
 * price limit one integer comparison and the price sort a counting sort.
 */
export class AmountCodes {
  private readonly byText = new Map<string, number>();
  private readonly amounts: Amount[] = [];
  /** Dense rank of each code's amount, ascending from 1 (equal amounts, equal ranks); null when stale. */
  private ranks: Int32Array | null = null;
  private sortedRanks: { amounts: Amount[] } | null = null;

  /** Codes for these decimal texts, in their order (see texts). */
  static of(texts: readonly string[]): AmountCodes {
    const codes = new AmountCodes();
    for (const text of texts) codes.code(text);
    return codes;
  }

  /** The decimal texts in code order. */
  texts(): string[] {
    return [...this.byText.keys()];
  }

  /** The code of the amount written as this decimal text (added when new). */
  code(text: string): number {
    let code = this.byText.get(text);
    if (code === undefined) {
      code = this.amounts.length;
      this.amounts.push(amountOf(text));
      this.byText.set(text, code);
      this.ranks = null;
      this.sortedRanks = null;
    }
    return code;
  }

  /** The code's amount. */
  amount(code: number): Amount {
    const amount = this.amounts[code];
    if (amount === undefined) throw new Error(`no amount has code ${code}`);
    return amount;
  }

  /** The rank of the code's amount (1 = the lowest). */
  rankOf(code: number): number {
    return this.rankTable()[code] as number;
  }

  /** Ranks by code (see rankOf): valid until the next new amount. */
  rankTable(): Int32Array {
    if (this.ranks !== null) return this.ranks;
    const order = Int32Array.from(this.amounts.keys()).sort((a, b) =>
      compareAmounts(this.amounts[a] as Amount, this.amounts[b] as Amount),
    );
    const ranks = new Int32Array(this.amounts.length);
    const distinct: Amount[] = [];
    for (const code of order) {
      const amount = this.amounts[code] as Amount;
      const last = distinct[distinct.length - 1];
      if (last === undefined || compareAmounts(last, amount) !== 0) distinct.push(amount);
      ranks[code] = distinct.length;
    }
    this.ranks = ranks;
    this.sortedRanks = { amounts: distinct };
    return ranks;
  }

  /** The highest rank whose amount is at most `max` (0: none is): a code passes if its rank is ≤ it. */
  highestRankAtMost(max: Amount): number {
    return this.ranksWhere((amount) => compareAmounts(amount, max) <= 0);
  }

  /** The highest rank whose amount is below `min` (0: none is): a code is at least `min` if its rank is above it. */
  highestRankBelow(min: Amount): number {
    return this.ranksWhere((amount) => compareAmounts(amount, min) < 0);
  }

  /** How many distinct amounts, lowest first, pass `test` (which holds for a prefix of them). */
  private ranksWhere(test: (amount: Amount) => boolean): number {
    this.rankTable();
    const distinct = this.sortedRanks?.amounts ?? [];
    let low = 0;
    let high = distinct.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (test(distinct[middle] as Amount)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
