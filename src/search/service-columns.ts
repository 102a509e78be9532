import type { ServiceFilters } from "../catalogue/service-queries";
import type { ServiceEntry } from "./service-index";

/** Clears the mask where the column's value is below `min` or missing (NaN fails `>=`). */
function keepAtLeast(mask: Uint8Array, column: Float64Array, min: number | undefined): void {
  if (min === undefined) return;
  for (let i = 0; i < mask.length; i += 1) if (!((column[i] ?? Number.NaN) >= min)) mask[i] = 0;
}

const numberColumn = (entries: readonly ServiceEntry[], value: (entry: ServiceEntry) => number | null) =>
  Float64Array.from(entries, (entry) => value(entry) ?? Number.NaN);

/** For each value, the indexes of the entries that have it (ascending). */
function indexesByValue(
  entries: readonly ServiceEntry[],
  values: (entry: ServiceEntry) => Iterable<string>,
): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    for (const value of values(entry)) {
      const list = lists.get(value);
      if (list) list.push(i);
      else lists.set(value, [i]);
    }
  });
  return new Map([...lists].map(([value, list]) => [value, Int32Array.from(list)]));
}

/**
 * The filter fields of every entry as columns (typed arrays and lists of entry indexes). A list
 * filters thousands of entries; the entries themselves are objects scattered in memory, one cache
 * miss each, where a column keeps its values together and a filter is one tight loop over it.
 * Missing values are NaN, which every comparison rejects, as SQL rejects NULL.
 */
export class ServiceColumns {
  /** For each status, 1 for the entries that have it: every list filters on status. */
  private readonly statusMasks: Record<"listed" | "delisted", Uint8Array>;
  private readonly categoryIds = new Map<string, number>();
  private readonly categories: Int32Array;
  private readonly uptime: Float64Array;
  private readonly responseMs: Float64Array;
  private readonly txCount: Float64Array;
  private readonly payerCount: Float64Array;
  private readonly updatedAt: Float64Array;
  private readonly withTag: Map<string, Int32Array>;
  private readonly withMethod: Map<string, Int32Array>;

  constructor(private readonly entries: readonly ServiceEntry[]) {
    this.statusMasks = {
      listed: Uint8Array.from(entries, (entry) => (entry.status === "listed" ? 1 : 0)),
      delisted: Uint8Array.from(entries, (entry) => (entry.status === "delisted" ? 1 : 0)),
    };
    this.categories = Int32Array.from(entries, ({ category }) => {
      if (category === null) return -1;
      const id = this.categoryIds.get(category) ?? this.categoryIds.size;
      this.categoryIds.set(category, id);
      return id;
    });
    this.uptime = numberColumn(entries, (entry) => entry.uptime30d);
    this.responseMs = numberColumn(entries, (entry) => entry.avgResponseMs30d);
    this.txCount = numberColumn(entries, (entry) => entry.txCount30d);
    this.payerCount = numberColumn(entries, (entry) => entry.payerCount30d);
    this.updatedAt = numberColumn(entries, (entry) => entry.infoUpdatedAt);
    this.withTag = indexesByValue(entries, (entry) => entry.tags);
    this.withMethod = indexesByValue(entries, (entry) => entry.methods);
  }

  /**
   * Which entries pass the filters the columns hold (status, category, tags, method and the
   * numeric minimums and maximums): 1 in the mask. One tight loop per filter over a column; the
   * other filters are left to checks on the entries that pass these.
   */
  matching(filters: ServiceFilters): Uint8Array {
    const mask =
      filters.status === "all"
        ? new Uint8Array(this.entries.length).fill(1)
        : this.statusMasks[filters.status].slice();
    if (filters.category !== undefined) {
      const id = this.categoryIds.get(filters.category.toLowerCase()) ?? -2; // -2: no entry has it
      const { categories } = this;
      for (let i = 0; i < mask.length; i += 1) if (categories[i] !== id) mask[i] = 0;
    }
    keepAtLeast(mask, this.uptime, filters.minUptime);
    keepAtLeast(mask, this.txCount, filters.minTx);
    keepAtLeast(mask, this.payerCount, filters.minPayers);
    keepAtLeast(mask, this.updatedAt, filters.updatedSince?.getTime());
    const maxResponse = filters.maxResponseMs;
    if (maxResponse !== undefined) {
      const { responseMs } = this;
      // NaN (no value) fails the comparison, so the negated test drops it.
      for (let i = 0; i < mask.length; i += 1)
        if (!((responseMs[i] ?? Number.NaN) <= maxResponse)) mask[i] = 0;
    }
    const required = [
      ...(filters.tags ?? []).map((tag) => this.withTag.get(tag)),
      ...(filters.method === undefined ? [] : [this.withMethod.get(filters.method)]),
    ];
    if (required.length > 0) {
      const counts = new Uint16Array(mask.length);
      for (const list of required) for (const i of list ?? []) counts[i] = (counts[i] ?? 0) + 1;
      for (let i = 0; i < mask.length; i += 1) if (counts[i] !== required.length) mask[i] = 0;
    }
    return mask;
  }
}
