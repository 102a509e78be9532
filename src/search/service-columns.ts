import type { ServiceFilters } from "../catalogue/service-queries";
import type { ServiceEntry } from "./service-index";

/** A check of the entry with this index. */
export type Predicate = (i: number) => boolean;

const STATUS_CODES = { listed: 1, delisted: 2 } as const;

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
 * miss each, where a column keeps its values together. Missing values are NaN, which every
 * comparison rejects, as SQL rejects NULL.
 */
export class ServiceColumns {
  private readonly statuses: Uint8Array;
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
    this.statuses = Uint8Array.from(entries, (entry) => STATUS_CODES[entry.status]);
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
   * Checks for the filters the columns hold (status, category, tags, method and the numeric
   * minimums and maximums), cheapest first; the other filters are checked on the entries.
   */
  checks(filters: ServiceFilters): Predicate[] {
    const checks: Predicate[] = [];
    if (filters.status !== "all") {
      const { statuses } = this;
      const status = STATUS_CODES[filters.status];
      checks.push((i) => statuses[i] === status);
    }
    if (filters.category !== undefined) {
      const { categories } = this;
      const id = this.categoryIds.get(filters.category.toLowerCase()) ?? -2; // -2: no entry has it
      checks.push((i) => categories[i] === id);
    }
    const atLeast = (column: Float64Array, min: number | undefined) => {
      if (min !== undefined) checks.push((i) => (column[i] ?? Number.NaN) >= min);
    };
    atLeast(this.uptime, filters.minUptime);
    atLeast(this.txCount, filters.minTx);
    atLeast(this.payerCount, filters.minPayers);
    atLeast(this.updatedAt, filters.updatedSince?.getTime());
    const maxResponse = filters.maxResponseMs;
    if (maxResponse !== undefined) {
      const { responseMs } = this;
      checks.push((i) => (responseMs[i] ?? Number.NaN) <= maxResponse);
    }
    const required = [
      ...(filters.tags ?? []).map((tag) => this.withTag.get(tag)),
      ...(filters.method === undefined ? [] : [this.withMethod.get(filters.method)]),
    ];
    if (required.length > 0) checks.push(this.hasAll(required));
    return checks;
  }

  /** Whether an entry is in every one of these lists (undefined: a value no entry has). */
  private hasAll(lists: Array<Int32Array | undefined>): Predicate {
    const counts = new Uint16Array(this.entries.length);
    for (const list of lists) for (const i of list ?? []) counts[i] = (counts[i] ?? 0) + 1;
    const wanted = lists.length;
    return (i) => counts[i] === wanted;
  }
}
