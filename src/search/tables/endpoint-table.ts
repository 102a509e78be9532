import type { Paging } from "../../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../../catalogue/probe-stats";
import type { EndpointFilters } from "../query/filters";
import type { EndpointColumnSort, EndpointSort } from "../query/sorts";
import type { TsQuery } from "../query/tsquery";
import { acceptAll, type TextIndex } from "../text/text-index";
import { endpointCheck } from "./endpoint-checks";
import {
  columnsOf,
  type EndpointColumnData,
  type EndpointColumns,
  type EndpointFields,
  entryArraysOf,
  flagsOf,
  PAYABLE,
} from "./endpoint-columns";
import { ENDPOINT_ORDERS } from "./endpoint-orders";
import { HeldOrders } from "./held-orders";
import { IdLookup, packedIdAt } from "./id-lookup";
import { type ItemOrder, type ItemPasses, type PassRunner, pageByKeys, rankedOrder } from "./page-order";

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
  /** For each sort of ENDPOINT_ORDERS computed: entries in that order, and each one's place in it. */
  private readonly orders = new HeldOrders<EndpointColumnSort>(
    (sort) => sort,
    (sort) => this.orderPasses(sort),
  );
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
      ...entryArraysOf(columns),
      networkStarts: networks.starts,
      networkCodes: networks.codes,
      priceStarts: prices.starts,
      priceCodes: prices.codes,
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
    const keysBefore = (this.orders.names() as EndpointColumnSort[]).map(
      (sort) => [sort, ENDPOINT_ORDERS[sort].key(columns, i)] as const,
    );
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
    // An order holds while what it reads of the entry stays, as the price for most probes (a sweep
    // replaces hundreds of endpoints a second, and computing the price order again each time costs
    // ~60 ms of CPU a second at 475,000 endpoints).
    const moved = keysBefore.filter(([sort, before]) => ENDPOINT_ORDERS[sort].key(columns, i) !== before);
    this.orders.changed((sort) => moved.some(([movedSort]) => movedSort === sort));
  }

  /**
   * Computes the orders of ENDPOINT_ORDERS not held, with `run` (see ServiceTable.prepareOrders):
   * ~60 ms of CPU at 475,000 endpoints that the first `sort=price` request after a load or a probe
   * update would otherwise spend at once. Returns how many it computed.
   */
  prepareOrders(run: PassRunner): Promise<number> {
    return this.orders.prepare(Object.keys(ENDPOINT_ORDERS) as EndpointColumnSort[], run);
  }

  /** Entries in a sort's order, no value last, ties in the default order (the entries' own). */
  private order(sort: EndpointColumnSort): ItemOrder {
    return this.orders.get(sort);
  }

  private orderPasses(sort: EndpointColumnSort): ItemPasses<ItemOrder> {
    const { descending, ranks } = ENDPOINT_ORDERS[sort];
    const entryOrder = new Int32Array(this.size);
    for (let i = 0; i < entryOrder.length; i += 1) entryOrder[i] = i;
    return rankedOrder(ranks(this.columns), entryOrder, descending);
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
    const ordered = sort === undefined || sort === "relevance" ? null : sort;
    let page: number[] = [];
    let total = 0;
    if (query === undefined) {
      // The entries are in the default order already; another order is computed once.
      const order = ordered === null ? null : this.order(ordered).sorted;
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
        const { place } = this.order(ordered);
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
