import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { HEALTH_STATES } from "../../trust/health";
import type { Amount } from "./amounts";
import {
  BOUND_FILTERS,
  type BoundFilter,
  LIST_COLUMNS,
  LIST_FIELDS,
  type ListColumn,
  NUMBER_COLUMNS,
  NUMBER_FIELDS,
  type NumberColumn,
} from "./service-column-fields";
import { ServiceColumns } from "./service-columns";
import type { ServiceEntry } from "./service-entry";

/**
 * Makes the columns entry by entry, as a load reads them (a batch at a time, with the event loop
 * free in between); finishing only copies what was gathered into typed arrays. Made in passes over
 * every entry at the end, the columns would hold the event loop for 10-50 ms a pass at 100,000 entries.
 */
export class ServiceColumnsBuilder {
  private count = 0;
  private readonly numbers = Object.fromEntries(
    NUMBER_COLUMNS.map((column) => [column, [] as number[]]),
  ) as Record<NumberColumn, number[]>;
  private readonly lists = Object.fromEntries(
    LIST_COLUMNS.map((column) => [column, new Map<string, number[]>()]),
  ) as Record<ListColumn, Map<string, number[]>>;
  private readonly volumeOfRank: Amount[] = [];
  private readonly healthCodes: number[] = [];

  /** Adds the next entry (entries are added in their table's order). */
  add(entry: ServiceEntry): void {
    const i = this.count;
    this.count += 1;
    for (const column of NUMBER_COLUMNS)
      this.numbers[column].push(NUMBER_FIELDS[column](entry) ?? Number.NaN);
    for (const column of LIST_COLUMNS) {
      const lists = this.lists[column];
      for (const value of LIST_FIELDS[column](entry)) {
        const list = lists.get(value);
        if (list) list.push(i);
        else lists.set(value, [i]);
      }
    }
    if (entry.volume !== null) this.volumeOfRank[entry.sortRanks.volume] = entry.volume;
    this.healthCodes.push(HEALTH_STATES.indexOf(entry.health));
  }

  /**
   * The columns of `entries`, which are the entries added, in the same order: a column at a time,
   * with the event loop free in between.
   */
  async finish(entries: readonly ServiceEntry[]): Promise<ServiceColumns> {
    if (entries.length !== this.count) throw new Error("the columns were made of other entries");
    const numbers = async (column: NumberColumn) => {
      await yieldToEventLoop();
      return Float64Array.from(this.numbers[column]);
    };
    const lists = async (column: ListColumn) => {
      await yieldToEventLoop();
      return new Map([...this.lists[column]].map(([value, list]) => [value, Int32Array.from(list)]));
    };
    const everyEntry = new Int32Array(this.count);
    for (let i = 0; i < everyEntry.length; i += 1) everyEntry[i] = i;
    return new ServiceColumns(entries, {
      everyEntry,
      withStatus: await lists("withStatus"),
      withCategory: await lists("withCategory"),
      healthCodes: Uint8Array.from(this.healthCodes),
      bounds: await boundColumns(numbers),
      volumeRanks: await numbers("volumeRanks"),
      volumeOfRank: this.volumeOfRank,
      withTag: await lists("withTag"),
      withMethod: await lists("withMethod"),
      withWarning: await lists("withWarning"),
    });
  }
}

/** The bound filters' columns, one at a time. */
async function boundColumns(
  numbers: (column: NumberColumn) => Promise<Float64Array>,
): Promise<Record<BoundFilter, Float64Array>> {
  const columns: Partial<Record<BoundFilter, Float64Array>> = {};
  for (const filter of BOUND_FILTERS) columns[filter] = await numbers(filter);
  return columns as Record<BoundFilter, Float64Array>;
}
