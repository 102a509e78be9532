import type { EndpointSort } from "../../catalogue/endpoint-queries";
import type { Paging } from "../../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../../catalogue/probe-stats";
import type { EndpointFilters } from "../query/filters";
import type { TsQuery } from "../query/tsquery";
import { runInSlices, runToEnd, type Steps } from "../scale/event-loop-slices";
import { acceptAll, type TextIndex } from "../text/text-index";
import { type Amount, compareAmounts, sameAmount } from "./amounts";
import { endpointCheck } from "./endpoint-checks";
import {
  columnsOf,
  type EndpointColumnData,
  type EndpointColumns,
  type EndpointFields,
  flagsOf,
  PAYABLE,
} from "./endpoint-columns";
import { IdLookup, packedIdAt } from "./id-lookup";
import { type ItemOrder, orderByRanksSteps, pageByKeys, slices } from "./page-order";

/**
 * Endpoint search answered from memory: the endpoints of listed service rows, in the default
 * order (the busiest services' endpoints first, in page order), as typed-array columns
 * (endpoint-columns.ts) checked by endpoint-checks.ts. The items themselves are read from
 * Postgres per page (see page/catalogue-items.ts).
 */

/** A page of endpoints: entry indexes in order, whether each was verified recently, how many match. */
export interface EndpointPage {
  page: number[];
  verified: boolean[];
  total: number;
}

export class EndpointTable {
  /** Entries by lowest price (unpriced last, ties in the default order), and each one's place. */
  private byPrice: ItemOrder | null = null;
  /** Entries by observed raw or adjusted volume (largest first, none last), made on first use; only a load changes them. */
  private readonly byVolume = new Map<"observedVolume" | "adjustedVolume", ItemOrder>();
  /** Counts entries replaced in place: a price order prepared across one is not kept. */
  private changes = 0;
  private readonly lookup: IdLookup;

  private constructor(
    private readonly columns: EndpointColumns,
    /** Documents in the same order as the entries. */
    readonly text: TextIndex,
  ) {
    this.lookup = new IdLookup(columns.idPlace, (i) => this.id(i));
  }

  /** The table of these columns and documents (in the same order). */
  static of(data: EndpointColumnData, text: TextIndex): EndpointTable {
    return new EndpointTable(columnsOf(data), text);
  }

  get size(): number {
    return this.columns.idPlace.length;
  }

  /**
   * The columns as plain data (see EndpointColumnData), their own arrays where nothing replaced
   * them: what an image stores. flags, lastVerifiedAt and the trust codes change in place (see replace), so a
   * caller that reads them over several turns of the event loop must keep replacements away.
   */
  data(): EndpointColumnData {
    const { columns } = this;
    const networks = columns.networks.flat();
    const prices = columns.prices.flat();
    return {
      ids: columns.ids,
      idPlace: columns.idPlace,
      method: columns.method,
      category: columns.category,
      networkStarts: networks.starts,
      networkCodes: networks.codes,
      priceStarts: prices.starts,
      priceCodes: prices.codes,
      flags: columns.flags,
      lastVerifiedAt: columns.lastVerifiedAt,
      health: columns.health,
      grade: columns.grade,
      score: columns.score,
      warnings: columns.warnings,
      observedVolume: columns.observedVolume,
      adjustedVolume: columns.adjustedVolume,
      uniquePayers: columns.uniquePayers,
      methods: columns.dictionaries.methods.values(),
      categories: columns.dictionaries.categories.values(),
      networks: columns.dictionaries.networks.values(),
      prices: columns.dictionaries.prices.texts(),
      volumes: columns.dictionaries.volumes.texts(),
    };
  }

  /** The index of the endpoint with this id. */
  indexOf(id: string): number | undefined {
    return this.lookup.find(id);
  }

  id(i: number): string {
    if (i < 0 || i >= this.size) throw new Error(`no endpoint entry ${i}`);
    return packedIdAt(this.columns.ids, i);
  }

  isPayable(i: number): boolean {
    return ((this.columns.flags[i] as number) & PAYABLE) !== 0;
  }

  /** Whether `fields` can replace endpoint i: only a reload changes its method or category. */
  canReplace(i: number, fields: EndpointFields): boolean {
    const { methods, categories } = this.columns.dictionaries;
    const category = fields.category === null ? -1 : categories.find(fields.category);
    return methods.find(fields.method) === this.columns.method[i] && category === this.columns.category[i];
  }

  /** Puts a newer version of endpoint i (a probe's result, see canReplace) in its place; its text stays. */
  replace(i: number, fields: EndpointFields): void {
    const { columns } = this;
    const { networks, prices } = columns.dictionaries;
    if (this.id(i) !== fields.id || !this.canReplace(i, fields))
      throw new Error(`endpoint entry ${i} cannot take ${fields.id}'s fields`);
    const lowestBefore = this.lowestPrice(i);
    columns.networks.replace(
      i,
      Int32Array.from(fields.networks, (n) => networks.code(n)),
    );
    columns.prices.replace(
      i,
      Int32Array.from(fields.prices, (p) => prices.code(p)),
    );
    columns.flags[i] = flagsOf(fields);
    columns.lastVerifiedAt[i] = fields.lastVerifiedAt ?? Number.NaN;
    columns.health[i] = fields.trust.health;
    columns.grade[i] = fields.trust.grade;
    columns.score[i] = fields.trust.score;
    columns.warnings[i] = fields.trust.warnings;
    // The price order orders by the lowest price alone (ties by place): it holds while that stays,
    // as it does for most probes (a sweep replaces hundreds of endpoints a second, and computing
    // the order again each time costs ~60 ms of CPU a second at 475,000 endpoints).
    if (!sameAmount(lowestBefore, this.lowestPrice(i))) this.byPrice = null;
    this.changes += 1;
  }

  /** Entry i's lowest price; null when it has none. */
  private lowestPrice(i: number): Amount | null {
    const { prices } = this.columns.dictionaries;
    let lowest: Amount | null = null;
    this.columns.prices.some(i, (code) => {
      const amount = prices.amount(code);
      if (lowest === null || compareAmounts(amount, lowest) < 0) lowest = amount;
      return false;
    });
    return lowest;
  }

  /** The lowest price rank of entry i (see AmountCodes); 0 when it has no price. */
  private lowestPriceRank(i: number, ranks: Int32Array): number {
    let lowest = 0;
    this.columns.prices.some(i, (code) => {
      const rank = ranks[code] as number;
      if (lowest === 0 || rank < lowest) lowest = rank;
      return false;
    });
    return lowest;
  }

  /**
   * Computes the price order if it is not held, a slice per turn of the event loop (see
   * ServiceTable.prepareOrders): ~60 ms of CPU at 475,000 endpoints that the first `sort=price`
   * request after a load or a probe update would otherwise spend at once. Returns whether it did.
   */
  async preparePriceOrder(): Promise<boolean> {
    if (this.byPrice !== null) return false;
    const changes = this.changes;
    const prepared = await runInSlices(this.priceOrderSteps());
    // An entry replaced meanwhile may have moved: what was prepared is stale and is left unheld.
    if (changes === this.changes && this.byPrice === null) this.byPrice = prepared;
    return true;
  }

  /** Entries by lowest price, unpriced last, ties in the default order (the entries' own). */
  private priceOrder(): ItemOrder {
    this.byPrice ??= runToEnd(this.priceOrderSteps());
    return this.byPrice;
  }

  private *priceOrderSteps(): Steps<ItemOrder> {
    const rankTable = this.columns.dictionaries.prices.rankTable();
    const ranks = new Int32Array(this.size);
    const entryOrder = new Int32Array(this.size);
    for (const [from, to] of slices(this.size)) {
      for (let i = from; i < to; i += 1) {
        ranks[i] = this.lowestPriceRank(i, rankTable);
        entryOrder[i] = i;
      }
      yield;
    }
    return yield* orderByRanksSteps(ranks, entryOrder, false);
  }

  /** Entries by an observed volume, largest first, those with none last, ties in the default order. */
  private volumeOrder(column: "observedVolume" | "adjustedVolume"): ItemOrder {
    let order = this.byVolume.get(column);
    if (order === undefined) {
      const codes = this.columns[column];
      const rankTable = this.columns.dictionaries.volumes.rankTable();
      const ranks = Int32Array.from(codes, (code) => (code < 0 ? 0 : (rankTable[code] as number)));
      const entryOrder = Int32Array.from(codes.keys());
      order = runToEnd(orderByRanksSteps(ranks, entryOrder, true));
      this.byVolume.set(column, order);
    }
    return order;
  }

  /** The order a sort asks for; null for the default order (or relevance). */
  private orderOf(sort: EndpointSort | undefined): ItemOrder | null {
    if (sort === "price") return this.priceOrder();
    if (sort === "observed_volume") return this.volumeOrder("observedVolume");
    if (sort === "adjusted_volume") return this.volumeOrder("adjustedVolume");
    return null;
  }

  list(
    filters: EndpointFilters,
    sort: EndpointSort | undefined,
    paging: Paging,
    query: TsQuery | null | undefined,
    now: number,
  ): EndpointPage {
    // Without filters, no column is read per match (a common word matches thousands).
    const accepts = endpointCheck(filters, this.columns, now) ?? acceptAll;
    const ordered = this.orderOf(sort);
    let page: number[] = [];
    let total = 0;
    if (query === undefined) {
      // The entries are in the default order already; another order is computed once.
      const order = ordered?.sorted ?? null;
      for (let n = 0; n < this.size; n += 1) {
        const i = order === null ? n : (order[n] as number);
        if (!accepts(i)) continue;
        if (total >= paging.offset && page.length < paging.limit) page.push(i);
        total += 1;
      }
    } else if (query !== null) {
      const { idPlace } = this.columns;
      const { docs, ranks } = this.text.search(query, accepts, ordered === null);
      if (ordered !== null) {
        const { place } = ordered;
        const keys = new Float32Array(docs.length);
        for (let m = 0; m < docs.length; m += 1) keys[m] = place[docs[m] as number] as number;
        page = pageByKeys(docs, keys, false, idPlace, paging.offset, paging.limit);
      } else page = pageByKeys(docs, ranks, true, idPlace, paging.offset, paging.limit);
      total = docs.length;
    }
    const since = now - VERIFIED_WITHIN_MS;
    const verified = page.map((i) => (this.columns.lastVerifiedAt[i] as number) > since);
    return { page, verified, total };
  }
}
