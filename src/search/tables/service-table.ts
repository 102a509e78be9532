import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Paging } from "../../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../../catalogue/probe-stats";
import type { ServiceOrder } from "../../catalogue/service-queries";
import { transportOf } from "../../mcp-tools/tool-url";
import { decimalToString } from "../../normalise/decimal";
import type { ServiceFilters } from "../query/filters";
import type { TsQuery } from "../query/tsquery";
import type { TextIndex } from "../text/text-index";
import { type Amount, amountOf, compareAmounts, lowestAmount } from "./amounts";
import { HeldOrders } from "./held-orders";
import { IdLookup } from "./id-lookup";
import { type ItemOrder, type ItemPasses, type PassRunner, pageByKeys, rankedOrder } from "./page-order";
import type { ServiceColumns } from "./service-columns";
import type { PaymentFacet, ServiceEntry } from "./service-entry";
import { hasBit } from "./sorted-lists";

/**
 * The services list answered from memory: one entry per catalogue entry (its primary row), with
 * what every filter and sort needs, and the list item already serialised. Filters and sorts keep
 * the SQL semantics they replace (see the field comments); sort order comes from Postgres itself
 * (dense ranks computed when loading), so collation and numeric order are Postgres's.
 */

/** A page of matches: entry indexes in the requested order, and how many match in all. */
export interface Found {
  page: number[];
  total: number;
}

type EntryCheck = (entry: ServiceEntry) => boolean;

const lower = (text: string | undefined) => text?.toLowerCase();

function paymentCheck(filters: ServiceFilters): EntryCheck | null {
  const network = lower(filters.network);
  const asset = lower(filters.asset);
  const payTo = lower(filters.payTo);
  const maxPrice = filters.maxPrice === undefined ? undefined : amountOf(filters.maxPrice);
  if (network === undefined && asset === undefined && payTo === undefined && maxPrice === undefined)
    return null;
  // One option must satisfy them all: "USDC on Base for at most a cent".
  const fitsBesidesPrice = (option: PaymentFacet) =>
    (network === undefined || option.network === network || option.networkName === network) &&
    (asset === undefined || option.asset === asset || option.assetSymbol === asset) &&
    (payTo === undefined || option.payTo === payTo);
  const fits = (option: PaymentFacet) =>
    fitsBesidesPrice(option) &&
    (maxPrice === undefined || (option.price !== null && compareAmounts(option.price, maxPrice) <= 0));
  if (maxPrice === undefined || filters.includeUnpriced !== true)
    return (entry) => entry.paymentOptions.some(fits);
  // An entry with no known price (an HTML directory's service before a probe saw its challenge)
  // is kept when asked: its price may be within the limit, nobody knows yet.
  const otherwise = network === undefined && asset === undefined && payTo === undefined;
  return (entry) =>
    entry.paymentOptions.some(fits) ||
    (entry.paymentOptions.every((option) => option.price === null) &&
      (otherwise || entry.paymentOptions.some(fitsBesidesPrice)));
}

/**
 * How each filter of the services search is answered, so that a filter declared in filters.ts
 * without its check does not compile: "text" by the text index, "columns" by ServiceColumns (its
 * lists and number bounds), "payment" by paymentCheck (one payment option must satisfy network,
 * asset, pay_to and max_price together), and a function by a check of the entry itself, made once
 * per request.
 */
const SERVICE_CHECKS: {
  [F in keyof Required<ServiceFilters>]:
    | "text"
    | "columns"
    | "payment"
    | ((value: NonNullable<ServiceFilters[F]>, now: number) => EntryCheck);
} = {
  q: "text",
  category: "columns",
  tags: "columns",
  method: "columns",
  status: "columns",
  minUptime: "columns",
  maxResponseMs: "columns",
  minVolume: "columns",
  minTx: "columns",
  minPayers: "columns",
  updatedSince: "columns",
  network: "payment",
  asset: "payment",
  maxPrice: "payment",
  includeUnpriced: "payment",
  payTo: "payment",
  domain: (domain) => (e) => e.domain === domain,
  transport: (transport) => (e) => e.methods.some((method) => transportOf(method) === transport),
  source: (source) => {
    // Base URLs are stored with a trailing slash; people often leave it off.
    const url = source.replace(/\/+$/, "");
    return (e) => e.sourceKinds.includes(source) || e.sourceUrls.includes(url);
  },
  verified: (wanted, now) => {
    const since24h = now - VERIFIED_WITHIN_MS;
    return (e) => (e.lastVerifiedAt !== null && e.lastVerifiedAt > since24h) === wanted;
  },
  drift: (drift) => (e) => e.drift === drift,
  ownerVerified: (wanted) => (e) => e.ownerVerified === wanted,
  health: "columns",
  minGrade: "columns",
  minScore: "columns",
  warnings: "columns",
  noWarnings: "columns",
  minObservedVolume: (min) => {
    const lowest = amountOf(min);
    return (e) => e.observedVolume !== null && compareAmounts(e.observedVolume, lowest) >= 0;
  },
  minUniquePayers: "columns",
};

/** The check of the filters that ServiceColumns does not hold, on the entry itself; null when none is given. */
function entryCheck(filters: ServiceFilters, now: number): EntryCheck | null {
  const checks: EntryCheck[] = [];
  for (const [field, value] of Object.entries(filters)) {
    const answer = SERVICE_CHECKS[field as keyof ServiceFilters];
    if (typeof answer === "function" && value !== undefined) checks.push(answer(value as never, now));
  }
  const payment = paymentCheck(filters);
  if (payment) checks.push(payment);
  if (checks.length === 0) return null;
  return (entry) => checks.every((check) => check(entry));
}

/** The entry's lowest price per call: what the `price` sort orders by (SQL's entryMinPrice). */
export function cheapestPrice(entry: ServiceEntry): Amount | null {
  return lowestAmount(entry.paymentOptions.map((option) => option.price));
}

/** The page of an order's items that `isMatch` keeps: walked from the first until the page is full. */
function walkOrder(sorted: Int32Array, isMatch: (i: number) => boolean, paging: Paging): number[] {
  const page: number[] = [];
  let seen = 0;
  for (let k = 0; k < sorted.length && page.length < paging.limit; k += 1) {
    const i = sorted[k] as number;
    if (!isMatch(i)) continue;
    if (seen >= paging.offset) page.push(i);
    seen += 1;
  }
  return page;
}

const orderKey = (order: ServiceOrder) => `${order.sort}:${order.order}`;

/** Filters whose lists hold at most 1 entry in SELECTIVE narrow a search before its words do. */
const SELECTIVE = 8;
/** Entries priceRanksWith reads between two turns of the event loop (~2-5 ms). */
const PRICE_SLICE = 4096;

export class ServiceTable {
  /** For each sort and direction: entry indexes in that order, and each entry's place in it. */
  private readonly orders = new HeldOrders<ServiceOrder>(orderKey, (order) => this.orderPasses(order));
  private readonly lookup: IdLookup;
  /**
   * One byte per entry, all 0 between requests: pageInSortOrder marks a request's matches in it
   * and clears them again, rather than allocating (and zeroing) one per request.
   */
  private readonly matchedScratch: Uint8Array;
  /**
   * Each entry's `price` rank, held here rather than read from its sortRanks: a probe that moves
   * a price has every rank computed again beside the table (priceRanksWith), then put in place at
   * once (setPriceRanks). An entry's own sortRanks.price is its rank when the table was made.
   */
  private priceRanks: Int32Array;

  private constructor(
    /** Replaced one by one in place (see replace); the columns read the same array. */
    private readonly entries: ServiceEntry[],
    private readonly columns: ServiceColumns,
    /** Documents in the same order as the entries. */
    readonly text: TextIndex,
    /** Each entry's place in id order (computed by Postgres): the tie-break, as an integer. */
    private readonly idPlace: Int32Array,
  ) {
    this.lookup = new IdLookup(idPlace, (i) => this.at(i).id);
    this.matchedScratch = new Uint8Array(entries.length);
    this.priceRanks = Int32Array.from(entries, (entry) => entry.sortRanks.price);
  }

  /** The table of these entries, with their columns (made as they were read: see ServiceColumnsBuilder). */
  static of(
    entries: ServiceEntry[],
    columns: ServiceColumns,
    text: TextIndex,
    idPlace: Int32Array,
  ): ServiceTable {
    return new ServiceTable(entries, columns, text, idPlace);
  }

  get size(): number {
    return this.entries.length;
  }

  /** What the table is made of besides its entries and columns (made again from the entries): what an image stores. */
  parts(): { idPlace: Int32Array; text: TextIndex } {
    return { idPlace: this.idPlace, text: this.text };
  }

  /** The entries [from, to) as an image stores them: with their current `price` ranks. */
  storedEntries(from: number, to: number): ServiceEntry[] {
    return this.entries.slice(from, to).map((entry, k) => {
      const price = this.priceRanks[from + k] as number;
      return entry.sortRanks.price === price ? entry : { ...entry, sortRanks: { ...entry.sortRanks, price } };
    });
  }

  /**
   * The page of matches (entry indexes, in the requested order) and how many match in all;
   * `query` is the parsed q (null: q matched nothing, as an empty query).
   */
  find(
    filters: ServiceFilters,
    order: ServiceOrder,
    paging: Paging,
    query: TsQuery | null | undefined,
    now: number,
  ): Found {
    if (query === null) return { page: [], total: 0 };
    const plan = this.columns.plan(filters, entryCheck(filters, now));
    const relevance = order.sort === "relevance" && query !== undefined;
    let matches: Int32Array;
    let ranks: Float32Array = new Float32Array(0);
    /** The matches' bitset, when they are a list the columns hold (a request without filters). */
    let bits: Int32Array | null = null;
    if (query === undefined) {
      matches = this.columns.matching(plan);
      if (matches === plan.driver) bits = this.columns.bitsetOf(matches);
    } else {
      // A selective filter (a small category, a rare tag) is also handed over as the list of
      // entries that pass, which the search walks when the words' documents are more.
      const within = plan.driver.length * SELECTIVE <= this.size ? this.columns.matching(plan) : null;
      ({ docs: matches, ranks } = this.text.search(query, this.columns.predicate(plan), relevance, within));
    }
    if (!relevance)
      return { page: this.pageInSortOrder(matches, bits, order, paging), total: matches.length };
    const { offset, limit } = paging;
    const page = pageByKeys(matches, ranks, order.order === "desc", this.idPlace, offset, limit);
    return { page, total: matches.length };
  }

  /**
   * The page of matches in a sort's precomputed order. Many matches (1 entry in 16 or more): walk
   * that order until the page is full, a few steps per item, testing each in the matches' bitset
   * when they have one, else in the scratch bytes they are marked in; few: choose them by their places.
   */
  private pageInSortOrder(
    matches: Int32Array,
    bits: Int32Array | null,
    order: ServiceOrder,
    paging: Paging,
  ): number[] {
    const { sorted, place } = this.sortOrder(order);
    if (bits !== null) return walkOrder(sorted, (i) => hasBit(bits, i), paging);
    if (matches.length * 16 >= sorted.length) {
      const matched = this.matchedScratch;
      for (let m = 0; m < matches.length; m += 1) matched[matches[m] as number] = 1;
      const page = walkOrder(sorted, (i) => matched[i] === 1, paging);
      for (let m = 0; m < matches.length; m += 1) matched[matches[m] as number] = 0;
      return page;
    }
    // A place is unique (ties by id already), so it is the whole key; exact as a float below 2^24.
    const keys = new Float32Array(matches.length);
    for (let m = 0; m < matches.length; m += 1) keys[m] = place[matches[m] as number] as number;
    return pageByKeys(matches, keys, false, this.idPlace, paging.offset, paging.limit);
  }

  /** The primary rows' ids of a found page (the CSV export reads those rows). */
  ids({ page }: Found): string[] {
    return page.map((i) => this.at(i).rowId);
  }

  /** Each found entry's number of payable endpoints, in the order of `ids` (the CSV export). */
  payableEndpoints({ page }: Found): number[] {
    return page.map((i) => this.at(i).payableEndpoints);
  }

  /** The index of the entry shown under `id`. */
  indexOf(id: string): number | undefined {
    return this.lookup.find(id);
  }

  /**
   * Puts a newer version of entry i in its place. Only fields that no column, list or order holds
   * may differ (the caller checks with indexedFieldsEqual): the columns and sort orders stay.
   */
  replace(i: number, entry: ServiceEntry): void {
    if (this.at(i).id !== entry.id) throw new Error(`entry ${i} is not ${entry.id}`);
    this.entries[i] = entry;
  }

  /**
   * Every entry's `price` rank once the `replacing` entries are in their places (probes changed
   * their cheapest price), from every entry's payment options (exact decimal order, as Postgres
   * orders numerics; no collation is involved): only the distinct prices are sorted (a few
   * thousand, however many entries), and the entries are read PRICE_SLICE per turn of the event
   * loop (at 100,000 entries the whole took 50-180 ms). Only reads the table.
   */
  async priceRanksWith(replacing: ReadonlyArray<[number, ServiceEntry]>): Promise<Int32Array> {
    const replaced = new Map(replacing);
    const keys = new Array<string | null>(this.size);
    const distinct = new Map<string, Amount>();
    for (let i = 0; i < this.size; i += 1) {
      if (i % PRICE_SLICE === PRICE_SLICE - 1) await yieldToEventLoop();
      const price = cheapestPrice(replaced.get(i) ?? this.at(i));
      const key = price === null ? null : decimalToString(price.exact);
      keys[i] = key;
      if (key !== null && price !== null) distinct.set(key, price);
    }
    const ranked = [...distinct].sort(([, a], [, b]) => compareAmounts(a, b));
    const rankOf = new Map(ranked.map(([key], k) => [key, k + 1]));
    const ranks = new Int32Array(this.size);
    for (let i = 0; i < this.size; i += 1) {
      if (i % PRICE_SLICE === PRICE_SLICE - 1) await yieldToEventLoop();
      const key = keys[i];
      ranks[i] = key === null || key === undefined ? 0 : (rankOf.get(key) as number);
    }
    return ranks;
  }

  /** Puts the `price` ranks of priceRanksWith in place, and drops the orders held for that sort. */
  setPriceRanks(ranks: Int32Array): void {
    if (ranks.length !== this.size) throw new Error("the price ranks are of another table");
    this.priceRanks = ranks;
    this.orders.changed((key) => key.startsWith("price:"));
  }

  at(i: number): ServiceEntry {
    const entry = this.entries[i];
    if (!entry) throw new Error(`no entry ${i}`);
    return entry;
  }

  /**
   * Computes the orders not yet held, with `run` (the catalogue's runner). A request that needs an
   * order nobody computed yet computes it at once (16-60 ms of CPU at 100,000 services, and the
   * first request after a load always needs the default order): the catalogue's holder calls this
   * before a new catalogue answers and after an in-place update. Returns how many it computed.
   */
  prepareOrders(orders: readonly ServiceOrder[], run: PassRunner): Promise<number> {
    return this.orders.prepare(orders, run);
  }

  /** Every entry in the order of a sort: missing values last in both directions, ties by id. */
  private sortOrder(order: ServiceOrder): ItemOrder {
    return this.orders.get(order);
  }

  private orderPasses(order: ServiceOrder): ItemPasses<ItemOrder> {
    // Relevance without q ranks nothing: every entry ties and id decides (as the SQL did).
    const key = order.sort === "relevance" ? null : order.sort;
    const priceRanks = key === "price" ? this.priceRanks : null;
    const rankEntries = (ranks: Int32Array, from: number, to: number) => {
      if (priceRanks !== null) ranks.set(priceRanks.subarray(from, to), from);
      else if (key !== null) for (let i = from; i < to; i += 1) ranks[i] = this.at(i).sortRanks[key];
    };
    return rankedOrder(rankEntries, this.idPlace, order.order === "desc");
  }
}
