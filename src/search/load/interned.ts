import { type Amount, amountOf } from "../tables/amounts";

/**
 * Values that many entries share (tags, methods, networks, assets, sources, prices, whole lists of
 * them), kept once: every row Postgres returns carries its own copy, and 100,000 entries' copies
 * add up, in memory and in the garbage collector's work (it visits every object the catalogue
 * holds, and a reload holds two catalogues). Shared values are never changed in place.
 */
export class Interned {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();
  private readonly amounts = new Map<string, Amount>();

  of(value: string): string;
  of(value: string | null): string | null;
  of(value: string | null): string | null {
    if (value === null) return null;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** The list with its strings shared, itself shared with every equal list (same values, same order). */
  list<T extends string>(values: readonly T[]): readonly T[] {
    const key = values.join("\0");
    const known = this.lists.get(key);
    if (known !== undefined && known.length === values.length) return known as readonly T[];
    const list = values.map((value) => this.of(value) as T);
    this.lists.set(key, list);
    return list;
  }

  /** The amount of this decimal text (prices repeat: a few thousand distinct among half a million). */
  amount(text: string): Amount {
    const known = this.amounts.get(text);
    if (known !== undefined) return known;
    const amount = amountOf(text);
    this.amounts.set(text, amount);
    return amount;
  }
}
