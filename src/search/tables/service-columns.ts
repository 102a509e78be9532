import { HEALTH_STATES, type Health } from "../../trust/health";
import { type ServiceFilters, SHOWN_HEALTH } from "../query/filters";
import { type Amount, amountOf, compareAmounts } from "./amounts";
import { keepOnBits, keepWhere, keepWithin } from "./keep-loops";
import { BOUND_FILTERS, BOUNDS, type BoundFilter, type ColumnParts } from "./service-column-fields";
import type { ServiceEntry } from "./service-entry";
import { bitset, hasBit } from "./sorted-lists";

/** Whether the entry with this index passes the filters. */
type Predicate = (i: number) => boolean;

type EntryPredicate = (entry: ServiceEntry) => boolean;

/**
 * A list query's filters resolved against the columns, once per request: the codes and ranks the
 * columns hold, the lists every match is on, and the check of the filters the columns do not hold.
 */
export interface FilterPlan {
  filters: ServiceFilters;
  /** The number columns bounded (see BOUNDS), the volume's rank among them. */
  bounds: GivenBound[];
  /**
   * The lists every match is on: the entries with the status and one of the healths asked for
   * (every health but dead by default), with the category, each tag, the method and each warning
   * asked for.
   */
  required: Int32Array[];
  /** The lists no match is on: the entries with a warning excluded (no_warning). */
  excluded: Int32Array[];
  /** The shortest of them (of equal ones the last; every entry when there is none): where matching starts. */
  driver: Int32Array;
  /** The check of the filters the columns do not hold; null when none is given. */
  entryPasses: EntryPredicate | null;
}

/** A bound given in a request: its column and the range a match's value is in. */
interface GivenBound {
  column: Float64Array;
  min: number;
  max: number;
}

/** How many lists keep a bitset (see bitsetOf). */
const BITSETS_KEPT = 1024;
/** How many lists withStatusAndHealth keeps (requests ask for one or two: the default's and status=all's). */
const STATUS_AND_HEALTH_KEPT = 16;
const NO_ENTRIES = new Int32Array(0);

/**
 * The filter fields of every entry as columns (typed arrays, and lists of entry indexes per
 * value). A list starts from the shortest list every match is on and narrows it filter by filter;
 * a search checks its matches with one predicate. Nothing runs over every entry per filter (a pass
 * of 10,000 unpredictable branches costs tens of µs on this machine), and the entries themselves,
 * objects scattered in memory, are only read for the filters the columns do not hold.
 * Missing values are NaN, which every comparison rejects, as SQL rejects NULL.
 */
export class ServiceColumns {
  private readonly everyEntry: Int32Array;
  private readonly withStatus: Map<string, Int32Array>;
  private readonly withCategory: Map<string, Int32Array>;
  /** Each entry's health, as its place in HEALTH_STATES. */
  private readonly healthCodes: Uint8Array;
  /** The lists of withStatusAndHealth, by status and set of healths. */
  private readonly withStatusAndHealthLists = new Map<string, Int32Array>();
  private readonly bounds: Record<BoundFilter, Float64Array>;
  /**
   * Dense rank of each entry's volume (0: none), and the volume of each rank: a minimum volume,
   * compared exactly as decimals once, becomes a minimum rank.
   */
  private readonly volumeRanks: Float64Array;
  private readonly volumeOfRank: Amount[];
  private readonly withTag: Map<string, Int32Array>;
  private readonly withMethod: Map<string, Int32Array>;
  private readonly withWarning: Map<string, Int32Array>;
  private readonly bitsets = new Map<Int32Array, Int32Array>();

  constructor(
    private readonly entries: readonly ServiceEntry[],
    columns: ColumnParts,
  ) {
    this.everyEntry = columns.everyEntry;
    this.withStatus = columns.withStatus;
    this.withCategory = columns.withCategory;
    this.healthCodes = columns.healthCodes;
    this.bounds = columns.bounds;
    this.volumeRanks = columns.volumeRanks;
    this.volumeOfRank = columns.volumeOfRank;
    this.withTag = columns.withTag;
    this.withMethod = columns.withMethod;
    this.withWarning = columns.withWarning;
  }

  /** The filters resolved against the columns, once per request (see FilterPlan). */
  plan(filters: ServiceFilters, entryPasses: EntryPredicate | null): FilterPlan {
    const required = (filters.tags ?? []).map((tag) => this.withTag.get(tag) ?? NO_ENTRIES);
    if (filters.method !== undefined) required.push(this.withMethod.get(filters.method) ?? NO_ENTRIES);
    for (const warning of filters.warnings ?? []) required.push(this.withWarning.get(warning) ?? NO_ENTRIES);
    if (filters.category !== undefined) {
      required.push(this.withCategory.get(filters.category.toLowerCase()) ?? NO_ENTRIES);
    }
    // Without health, every health but dead.
    required.push(this.withStatusAndHealth(filters.status, filters.health ?? SHOWN_HEALTH));
    return {
      filters,
      bounds: this.boundsOf(filters),
      required,
      excluded: (filters.noWarnings ?? []).map((warning) => this.withWarning.get(warning) ?? NO_ENTRIES),
      driver: required.reduce(
        (shortest, list) => (list.length <= shortest.length ? list : shortest),
        this.everyEntry,
      ),
      entryPasses,
    };
  }

  /**
   * The entries that pass the filters, ascending: the plan's driver, narrowed by one tight loop
   * per other filter over the survivors.
   */
  matching(plan: FilterPlan): Int32Array {
    const { driver, entryPasses } = plan;
    // Survivors are compacted into `kept` (never into a list of the index), made at the first filter.
    let kept: Int32Array | null = null;
    let from = driver;
    let count = driver.length;
    const narrow = (keep: (to: Int32Array) => number) => {
      kept ??= new Int32Array(driver.length);
      count = keep(kept);
      from = kept;
    };
    for (const { column, min, max } of plan.bounds) {
      narrow((to) => keepWithin(from, count, to, column, min, max));
    }
    // The other lists every match is on: a bit test per survivor in each one's bitset.
    for (const list of plan.required) {
      if (list !== driver) narrow((to) => keepOnBits(from, count, to, this.bitsetOf(list), true));
    }
    for (const list of plan.excluded) narrow((to) => keepOnBits(from, count, to, this.bitsetOf(list), false));
    const { entries } = this;
    if (entryPasses !== null)
      narrow((to) => keepWhere(from, count, to, (i) => entryPasses(entries[i] as ServiceEntry)));
    // Nothing narrowed the driver: the list itself, so its bitset is the one held (see bitsetOf).
    return kept === null ? driver : from.subarray(0, count);
  }

  /**
   * Whether one entry passes the filters (a search checks its matches so): one function with
   * every filter's constant hoisted, so an absent filter is a branch always taken the same way.
   */
  predicate({ bounds, required, excluded, entryPasses }: FilterPlan): Predicate {
    const { entries } = this;
    const columns = bounds.map((bound) => bound.column);
    const mins = bounds.map((bound) => bound.min);
    const maxes = bounds.map((bound) => bound.max);
    // NaN (no value) fails every comparison, so the negated test drops it.
    const withinBounds = (i: number) => {
      for (let k = 0; k < columns.length; k += 1) {
        const value = (columns[k] as Float64Array)[i] as number;
        if (!(value >= (mins[k] as number) && value <= (maxes[k] as number))) return false;
      }
      return true;
    };
    // Status, category, tags and method: a bit test per match in their lists' bitsets (N / 8
    // bytes each, so a search touches little memory: a column of 8-byte codes, or each match's
    // own sets, is a cache miss per match).
    const requiredBits = required.map((list) => this.bitsetOf(list));
    const onEveryList = (i: number) => {
      for (const bits of requiredBits) if (!hasBit(bits, i)) return false;
      return true;
    };
    const excludedBits = excluded.map((list) => this.bitsetOf(list));
    const onNoList = (i: number) => {
      for (const bits of excludedBits) if (hasBit(bits, i)) return false;
      return true;
    };
    return (i) =>
      (columns.length === 0 || withinBounds(i)) &&
      (requiredBits.length === 0 || onEveryList(i)) &&
      (excludedBits.length === 0 || onNoList(i)) &&
      (entryPasses === null || entryPasses(entries[i] as ServiceEntry));
  }

  /**
   * The entries with the status ("all": any) and one of these healths, ascending: made the first
   * time a search asks for them (one pass over the status's list) and kept while the columns are,
   * so the list a request without filters asks for is ready, with its bitset.
   */
  private withStatusAndHealth(status: ServiceFilters["status"], healths: readonly Health[]): Int32Array {
    let mask = 0;
    for (const health of healths) mask |= 1 << HEALTH_STATES.indexOf(health);
    const key = `${status}:${mask}`;
    let list = this.withStatusAndHealthLists.get(key);
    if (list === undefined) {
      if (this.withStatusAndHealthLists.size >= STATUS_AND_HEALTH_KEPT) this.withStatusAndHealthLists.clear();
      const codes = this.healthCodes;
      const of = status === "all" ? this.everyEntry : (this.withStatus.get(status) ?? NO_ENTRIES);
      const kept = new Int32Array(of.length);
      list = kept.subarray(
        0,
        keepWhere(of, of.length, kept, (i) => (mask & (1 << (codes[i] as number))) !== 0),
      );
      this.withStatusAndHealthLists.set(key, list);
    }
    return list;
  }

  /** The bounds given (see BOUNDS), with the minimum volume as a minimum rank of the volume. */
  private boundsOf(filters: ServiceFilters): GivenBound[] {
    const given: GivenBound[] = [];
    if (filters.minVolume !== undefined) {
      const min = this.lowestVolumeRank(filters.minVolume);
      given.push({ column: this.volumeRanks, min, max: Number.POSITIVE_INFINITY });
    }
    for (const filter of BOUND_FILTERS) {
      const value = filters[filter];
      if (value === undefined) continue;
      const spec = BOUNDS[filter];
      const bound = "bound" in spec ? spec.bound(value as never) : Number(value);
      given.push(
        BOUNDS[filter].lowest
          ? { column: this.bounds[filter], min: bound, max: Number.POSITIVE_INFINITY }
          : { column: this.bounds[filter], min: Number.NEGATIVE_INFINITY, max: bound },
      );
    }
    return given;
  }

  /**
   * A list of entries as a bitset (N / 8 bytes), made the first time a search needs it and kept
   * with the index, like a lazily built index; at most BITSETS_KEPT of them (then started anew).
   */
  bitsetOf(list: Int32Array): Int32Array {
    let bits = this.bitsets.get(list);
    if (bits === undefined) {
      if (this.bitsets.size >= BITSETS_KEPT) this.bitsets.clear();
      bits = bitset(list, this.entries.length);
      this.bitsets.set(list, bits);
    }
    return bits;
  }

  /** The lowest volume rank at or above `min` (exact decimal comparison); past the last when none. */
  private lowestVolumeRank(min: string): number {
    const wanted = amountOf(min);
    const volumes = this.volumeOfRank;
    let low = 1;
    let high = volumes.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareAmounts(volumes[middle] as Amount, wanted) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
