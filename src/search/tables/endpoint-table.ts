import type { EndpointSort, ListedEndpoint } from "../../catalogue/endpoint-queries";
import type { Paging } from "../../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../../catalogue/probe-stats";
import type { PaymentOptionRecord } from "../../catalogue/service-details";
import type { EndpointPayability } from "../../payability/endpoint-verdict";
import type { EndpointFilters } from "../query/filters";
import type { TsQuery } from "../query/tsquery";
import { runInSlices, runToEnd, type Steps } from "../scale/event-loop-slices";
import { acceptAll, type TextIndex } from "../text/text-index";
import { AmountCodes } from "./amount-codes";
import { type Amount, amountOf, compareAmounts, sameAmount } from "./amounts";
import { IdLookup, type PackedIds, packedIdAt, packIds } from "./id-lookup";
import { IntList } from "./int-list";
import { type ItemOrder, orderByRanksSteps, pageByKeys, slices } from "./page-order";

/**
 * Endpoint search answered from memory: the endpoints of listed service rows, in the default
 * order (the busiest services' endpoints first, in page order). At 100,000 services there are
 * half a million endpoints, so each is a row of typed-array columns (a few dozen bytes), not an
 * object (several hundred): codes for the method and category, lists of network and price codes
 * in one flat array each, flags and times. The items themselves are read from Postgres per page
 * (see catalogue-items.ts).
 */

/** What the index keeps of one endpoint, as the table reads it from a listed endpoint. */
export interface EndpointFields {
  id: string;
  method: string;
  /** The service's category, lower-cased. */
  category: string | null;
  /** Networks of its payment options, CAIP-2 ids and names, lower-cased. */
  networks: string[];
  /** Known prices of its payment options, exact decimal text. */
  prices: string[];
  drift: boolean;
  lastVerifiedAt: number | null;
  payable: boolean;
  /** Its seller published how to call it (a call description, from the listing or a live challenge). */
  callable: boolean;
}

/** An endpoint as the catalogue reads it (a load's index row, or a refreshed endpoint), with its verdict. */
export interface JudgedEndpoint {
  id: string;
  method: string;
  category: string | null;
  paymentOptions: PaymentOptionRecord[];
  lastVerifiedAt: Date | null;
  drift: boolean;
  payability: EndpointPayability;
  callable: boolean;
}

export function endpointFields(row: JudgedEndpoint): EndpointFields {
  return {
    id: row.id,
    method: row.method,
    category: row.category?.toLowerCase() ?? null,
    networks: row.paymentOptions.flatMap((o) =>
      [o.network, o.networkName].flatMap((n) => (n === null ? [] : [n.toLowerCase()])),
    ),
    prices: row.paymentOptions.flatMap((o) => (o.priceUsdc === null ? [] : [o.priceUsdc])),
    drift: row.drift,
    lastVerifiedAt: row.lastVerifiedAt?.getTime() ?? null,
    payable: row.payability.payable,
    callable: row.callable,
  };
}

/** The fields of an endpoint as the API shows it (a probe's refresh reads it so). */
export function listedEndpointFields(row: ListedEndpoint): EndpointFields {
  return endpointFields({ ...row, drift: row.drift !== null, callable: row.call !== null });
}

/** Small integer codes for repeated strings (methods, categories, networks). */
class Dictionary {
  private readonly codes = new Map<string, number>();

  /** A dictionary whose codes are the values' indexes. */
  static of(values: readonly string[]): Dictionary {
    const dictionary = new Dictionary();
    for (const value of values) dictionary.code(value);
    return dictionary;
  }

  /** The values in code order. */
  values(): string[] {
    return [...this.codes.keys()];
  }

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.codes.size;
      this.codes.set(value, code);
    }
    return code;
  }

  /** The value's code, or -1 for a value no endpoint has. */
  find(value: string): number {
    return this.codes.get(value) ?? -1;
  }
}

/** A list column: entry i's codes are codes[starts[i]..starts[i+1]); replaced entries' lists apart. */
class ListColumn {
  private readonly replaced = new Map<number, Int32Array>();

  constructor(
    private readonly starts: Int32Array,
    private readonly codes: Int32Array,
  ) {}

  /** Whether entry i's list holds a code that passes `test`. */
  some(i: number, test: (code: number) => boolean): boolean {
    const own = this.replaced.get(i);
    if (own !== undefined) return own.some(test);
    for (let k = this.starts[i] as number; k < (this.starts[i + 1] as number); k += 1)
      if (test(this.codes[k] as number)) return true;
    return false;
  }

  isEmpty(i: number): boolean {
    const own = this.replaced.get(i);
    return own !== undefined ? own.length === 0 : this.starts[i] === this.starts[i + 1];
  }

  replace(i: number, codes: Int32Array): void {
    this.replaced.set(i, codes);
  }

  /** Every entry's list as flat arrays: its own when no list was replaced, else made anew. */
  flat(): { starts: Int32Array; codes: Int32Array } {
    if (this.replaced.size === 0) return { starts: this.starts, codes: this.codes };
    const entries = this.starts.length - 1;
    const starts = new Int32Array(entries + 1);
    const codes = new IntList();
    for (let i = 0; i < entries; i += 1) {
      starts[i] = codes.length;
      const own = this.replaced.get(i);
      if (own !== undefined) for (const code of own) codes.push(code);
      else
        for (let k = this.starts[i] as number; k < (this.starts[i + 1] as number); k += 1)
          codes.push(this.codes[k] as number);
    }
    starts[entries] = codes.length;
    return { starts, codes: codes.done() };
  }
}

/**
 * The table's columns as plain data: typed arrays (each on a buffer of its own) and strings, so
 * a worker thread can build them and move them to the thread that answers requests.
 */
export interface EndpointColumnData {
  /** Every endpoint's id (an uuid), packed. */
  ids: PackedIds;
  idPlace: Int32Array;
  method: Int32Array;
  category: Int32Array;
  networkStarts: Int32Array;
  networkCodes: Int32Array;
  priceStarts: Int32Array;
  priceCodes: Int32Array;
  flags: Uint8Array;
  lastVerifiedAt: Float64Array;
  /** Each dictionary's values in code order (prices as decimal text). */
  methods: string[];
  categories: string[];
  networks: string[];
  prices: string[];
}

/** Collects endpoints in order, then makes the table's columns. */
export class EndpointTableBuilder {
  private readonly ids: string[] = [];
  private readonly idPlaces = new IntList();
  private readonly methodCodes = new IntList();
  private readonly categoryCodes = new IntList();
  private readonly networkStarts = new IntList();
  private readonly networkCodes = new IntList();
  private readonly priceStarts = new IntList();
  private readonly priceCodes = new IntList();
  private readonly flags = new IntList();
  private readonly verifiedAt: number[] = [];
  private readonly methods = new Dictionary();
  private readonly categories = new Dictionary();
  private readonly networks = new Dictionary();
  private readonly prices = new AmountCodes();

  /** Adds the next endpoint; `idPlace` is its place in id order (the tie-break of equal ranks). */
  add(fields: EndpointFields, idPlace: number): void {
    this.ids.push(fields.id);
    this.idPlaces.push(idPlace);
    this.methodCodes.push(this.methods.code(fields.method));
    this.categoryCodes.push(fields.category === null ? -1 : this.categories.code(fields.category));
    this.networkStarts.push(this.networkCodes.length);
    for (const network of fields.networks) this.networkCodes.push(this.networks.code(network));
    this.priceStarts.push(this.priceCodes.length);
    for (const price of fields.prices) this.priceCodes.push(this.prices.code(price));
    this.flags.push(flagsOf(fields));
    this.verifiedAt.push(fields.lastVerifiedAt ?? Number.NaN);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The columns collected; the builder is spent. */
  data(): EndpointColumnData {
    this.networkStarts.push(this.networkCodes.length);
    this.priceStarts.push(this.priceCodes.length);
    return {
      ids: packIds(this.ids),
      idPlace: this.idPlaces.done(),
      method: this.methodCodes.done(),
      category: this.categoryCodes.done(),
      networkStarts: this.networkStarts.done(),
      networkCodes: this.networkCodes.done(),
      priceStarts: this.priceStarts.done(),
      priceCodes: this.priceCodes.done(),
      flags: Uint8Array.from(this.flags.done()),
      lastVerifiedAt: Float64Array.from(this.verifiedAt),
      methods: this.methods.values(),
      categories: this.categories.values(),
      networks: this.networks.values(),
      prices: this.prices.texts(),
    };
  }
}

/** The buffers of the data's arrays (each its own), to move them to another thread. */
export function columnBuffers(data: EndpointColumnData): ArrayBuffer[] {
  return Object.values(data)
    .filter((value): value is ArrayBufferView => ArrayBuffer.isView(value))
    .map((array) => array.buffer as ArrayBuffer);
}

const DRIFT = 1;
const PAYABLE = 2;
const CALLABLE = 4;
const flagsOf = ({ drift, payable, callable }: Pick<EndpointFields, "drift" | "payable" | "callable">) =>
  (drift ? DRIFT : 0) | (payable ? PAYABLE : 0) | (callable ? CALLABLE : 0);

interface EndpointColumns {
  ids: PackedIds;
  /** Each entry's place in id order: the tie-break of equal ranks. */
  idPlace: Int32Array;
  method: Int32Array;
  /** -1: no category. */
  category: Int32Array;
  networks: ListColumn;
  prices: ListColumn;
  flags: Uint8Array;
  /** Epoch milliseconds; NaN when never verified. */
  lastVerifiedAt: Float64Array;
  dictionaries: { methods: Dictionary; categories: Dictionary; networks: Dictionary; prices: AmountCodes };
}

/** A page of endpoints: entry indexes in order, whether each was verified recently, how many match. */
export interface EndpointPage {
  page: number[];
  verified: boolean[];
  total: number;
}

type Check = (i: number) => boolean;

/** What a filter's check is made from, once per request. */
interface CheckContext {
  columns: EndpointColumns;
  filters: EndpointFilters;
  now: number;
}

/**
 * How each filter of the endpoint search is answered, so that a filter declared in filters.ts
 * without its check does not compile: "text" by the text index, "with max_price" by max_price's
 * check, a function by a check of the columns, made once per request.
 */
const ENDPOINT_CHECKS: {
  [F in keyof Required<EndpointFilters>]:
    | "text"
    | "with max_price"
    | ((value: NonNullable<EndpointFilters[F]>, context: CheckContext) => Check);
} = {
  q: "text",
  method: (method, { columns }) => {
    const code = columns.dictionaries.methods.find(method);
    return (i) => columns.method[i] === code;
  },
  category: (category, { columns }) => {
    const code = columns.dictionaries.categories.find(category.toLowerCase());
    return (i) => code >= 0 && columns.category[i] === code;
  },
  network: (network, { columns }) => {
    const code = columns.dictionaries.networks.find(network.toLowerCase());
    return (i) => code >= 0 && columns.networks.some(i, (c) => c === code);
  },
  maxPrice: (maxPrice, { columns, filters }) => {
    const { prices } = columns;
    const ranks = columns.dictionaries.prices.rankTable();
    const highest = columns.dictionaries.prices.highestRankAtMost(amountOf(maxPrice));
    const unpriced = filters.includeUnpriced === true;
    return (i) =>
      prices.some(i, (code) => (ranks[code] as number) <= highest) || (unpriced && prices.isEmpty(i));
  },
  includeUnpriced: "with max_price",
  verified: (verified, { columns, now }) => {
    const since = now - VERIFIED_WITHIN_MS;
    // NaN (never verified) is not after any time.
    return (i) => (columns.lastVerifiedAt[i] as number) > since === verified;
  },
  drift: (drift, { columns }) => flagCheck(columns, DRIFT, drift),
  payable: (payable, { columns }) => flagCheck(columns, PAYABLE, payable),
  callable: (callable, { columns }) => flagCheck(columns, CALLABLE, callable),
};

function flagCheck({ flags }: EndpointColumns, flag: number, wanted: boolean): Check {
  return (i) => (((flags[i] as number) & flag) !== 0) === wanted;
}

export class EndpointTable {
  /** Entries by lowest price (unpriced last, ties in the default order), and each one's place. */
  private byPrice: ItemOrder | null = null;
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
    return new EndpointTable(
      {
        ids: data.ids,
        idPlace: data.idPlace,
        method: data.method,
        category: data.category,
        networks: new ListColumn(data.networkStarts, data.networkCodes),
        prices: new ListColumn(data.priceStarts, data.priceCodes),
        flags: data.flags,
        lastVerifiedAt: data.lastVerifiedAt,
        dictionaries: {
          methods: Dictionary.of(data.methods),
          categories: Dictionary.of(data.categories),
          networks: Dictionary.of(data.networks),
          prices: AmountCodes.of(data.prices),
        },
      },
      text,
    );
  }

  get size(): number {
    return this.columns.idPlace.length;
  }

  /**
   * The columns as plain data (see EndpointColumnData), their own arrays where nothing replaced
   * them: what an image stores. flags and lastVerifiedAt change in place (see replace), so a
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
      methods: columns.dictionaries.methods.values(),
      categories: columns.dictionaries.categories.values(),
      networks: columns.dictionaries.networks.values(),
      prices: columns.dictionaries.prices.texts(),
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

  /** The filters as one check of an entry; null when none is given. Semantics as the services list's. */
  private check(filters: EndpointFilters, now: number): Check | null {
    const checks: Check[] = [];
    for (const [field, value] of Object.entries(filters)) {
      const answer = ENDPOINT_CHECKS[field as keyof EndpointFilters];
      if (typeof answer === "function" && value !== undefined)
        checks.push(answer(value as never, { columns: this.columns, filters, now }));
    }
    if (checks.length === 0) return null;
    return (i) => checks.every((c) => c(i));
  }

  list(
    filters: EndpointFilters,
    sort: EndpointSort | undefined,
    paging: Paging,
    query: TsQuery | null | undefined,
    now: number,
  ): EndpointPage {
    // Without filters, no column is read per match (a common word matches thousands).
    const accepts = this.check(filters, now) ?? acceptAll;
    const byPrice = sort === "price";
    let page: number[] = [];
    let total = 0;
    if (query === undefined) {
      // The entries are in the default order already; the price order is computed once.
      const order = byPrice ? this.priceOrder().sorted : null;
      for (let n = 0; n < this.size; n += 1) {
        const i = order === null ? n : (order[n] as number);
        if (!accepts(i)) continue;
        if (total >= paging.offset && page.length < paging.limit) page.push(i);
        total += 1;
      }
    } else if (query !== null) {
      const { idPlace } = this.columns;
      const { docs, ranks } = this.text.search(query, accepts, !byPrice);
      if (byPrice) {
        const { place } = this.priceOrder();
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
