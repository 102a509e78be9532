import type { Paging } from "../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../catalogue/probe-stats";
import type { ServiceFilters, ServiceOrder, ServiceSort } from "../catalogue/service-queries";
import { type Amount, amountOf, compareAmounts } from "./amounts";
import { ordinals, pageInOrder } from "./page-order";
import { ServiceColumns } from "./service-columns";
import type { TextIndex } from "./text-index";
import type { TsQuery } from "./tsquery";

/**
 * The services list answered from memory: one entry per catalogue entry (its primary row), with
 * what every filter and sort needs, and the list item already serialised. Filters and sorts keep
 * the SQL semantics they replace (see the field comments); sort order comes from Postgres itself
 * (dense ranks computed when loading), so collation and numeric order are Postgres's.
 */

export type SortKey = Exclude<ServiceSort, "relevance">;

/** One payment option of the entry, its text fields lower-cased for case-insensitive filters. */
export interface PaymentFacet {
  network: string | null;
  networkName: string | null;
  asset: string | null;
  assetSymbol: string | null;
  price: Amount | null;
  payTo: string | null;
}

export interface ServiceEntry {
  id: string;
  status: "listed" | "delisted";
  /** Lower-cased. */
  category: string | null;
  domain: string | null;
  uptime30d: number | null;
  avgResponseMs30d: number | null;
  volume: Amount | null;
  txCount30d: number | null;
  payerCount30d: number | null;
  /** Epoch milliseconds. */
  infoUpdatedAt: number | null;
  /** Of every row of the entry, like the rest below. */
  tags: ReadonlySet<string>;
  methods: ReadonlySet<string>;
  sourceKinds: readonly string[];
  /** Base URLs without their trailing slash. */
  sourceUrls: readonly string[];
  paymentOptions: readonly PaymentFacet[];
  /** Latest valid challenge of any endpoint, epoch milliseconds. */
  lastVerifiedAt: number | null;
  /** Dense rank of the entry's value for each sort, ascending; 0 when it has no value. */
  sortRanks: Readonly<Record<SortKey, number>>;
  /** The list item as the API sends it (UTF-8 JSON: a page is sent without encoding text again). */
  json: Buffer;
}

export interface Listing {
  /** Serialised items of the page (UTF-8 JSON). */
  items: Buffer[];
  total: number;
  /** Within one catalogue version, equal fingerprints mean equal items (for ETags without hashing bodies). */
  fingerprint: string;
}

/** A page of matches: entry indexes in the requested order, and how many match in all. */
export interface Found {
  page: number[];
  total: number;
}

type EntryCheck = (entry: ServiceEntry) => boolean;
/** Whether the entry with this index passes the filters. */
type Predicate = (i: number) => boolean;

const lower = (text: string | undefined) => text?.toLowerCase();

function paymentCheck(filters: ServiceFilters): EntryCheck | null {
  const network = lower(filters.network);
  const asset = lower(filters.asset);
  const payTo = lower(filters.payTo);
  const maxPrice = filters.maxPrice === undefined ? undefined : amountOf(filters.maxPrice);
  if (network === undefined && asset === undefined && payTo === undefined && maxPrice === undefined)
    return null;
  // One option must satisfy them all: "USDC on Base for at most a cent".
  const fits = (option: PaymentFacet) =>
    (network === undefined || option.network === network || option.networkName === network) &&
    (asset === undefined || option.asset === asset || option.assetSymbol === asset) &&
    (payTo === undefined || option.payTo === payTo) &&
    (maxPrice === undefined || (option.price !== null && compareAmounts(option.price, maxPrice) <= 0));
  return (entry) => entry.paymentOptions.some(fits);
}

/** Checks of the filters that ServiceColumns does not hold, on the entry itself. */
function entryChecks(filters: ServiceFilters, now: number): EntryCheck[] {
  const checks: EntryCheck[] = [];
  if (filters.domain !== undefined) checks.push((e) => e.domain === filters.domain);
  if (filters.minVolume !== undefined) {
    // Exact decimal comparison (amounts exceed a double's precision), so on the entry.
    const min = amountOf(filters.minVolume);
    checks.push((e) => e.volume !== null && compareAmounts(e.volume, min) >= 0);
  }
  const source = filters.source;
  if (source !== undefined) {
    // Base URLs are stored with a trailing slash; people often leave it off.
    const url = source.replace(/\/+$/, "");
    checks.push((e) => e.sourceKinds.includes(source) || e.sourceUrls.includes(url));
  }
  if (filters.verified !== undefined) {
    const since24h = now - VERIFIED_WITHIN_MS;
    const wanted = filters.verified;
    checks.push((e) => (e.lastVerifiedAt !== null && e.lastVerifiedAt > since24h) === wanted);
  }
  const payment = paymentCheck(filters);
  if (payment) checks.push(payment);
  return checks;
}

export class ServiceIndex {
  /** For each sort and direction: entry indexes in that order, and each entry's place in it. */
  private readonly orders = new Map<string, { sorted: Int32Array; place: Int32Array }>();
  /** Each entry's place in id order: the tie-break, as an integer. */
  private readonly idPlace: Int32Array;
  private readonly columns: ServiceColumns;

  constructor(
    private readonly entries: readonly ServiceEntry[],
    /** Documents in the same order as the entries. */
    readonly text: TextIndex,
  ) {
    this.idPlace = ordinals(entries.length, (i) => this.at(i).id);
    this.columns = new ServiceColumns(entries);
  }

  get size(): number {
    return this.entries.length;
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
    const { mask, entryPasses } = this.filter(filters, now);
    if (query === undefined) {
      // Walk the sort's precomputed order: the page is collected while counting every match.
      const page: number[] = [];
      const { sorted } = this.sortOrder(order);
      let total = 0;
      for (let k = 0; k < sorted.length; k += 1) {
        const i = sorted[k] as number;
        if (mask[i] !== 1 || (entryPasses !== null && !entryPasses(i))) continue;
        if (total >= paging.offset && page.length < paging.limit) page.push(i);
        total += 1;
      }
      return { page, total };
    }
    const accept: Predicate =
      entryPasses === null ? (i) => mask[i] === 1 : (i) => mask[i] === 1 && entryPasses(i);
    const { docs, ranks } = this.text.search(query, accept);
    const { idPlace } = this;
    let compare: (a: number, b: number) => number;
    if (order.sort === "relevance") {
      const sign = order.order === "asc" ? 1 : -1;
      compare = (a, b) =>
        sign * ((ranks[a] ?? 0) - (ranks[b] ?? 0)) ||
        (idPlace[docs[a] ?? 0] ?? 0) - (idPlace[docs[b] ?? 0] ?? 0);
    } else {
      const { place } = this.sortOrder(order);
      compare = (a, b) => (place[docs[a] ?? 0] ?? 0) - (place[docs[b] ?? 0] ?? 0);
    }
    const page = pageInOrder(docs.length, paging.offset, paging.limit, compare).map((m) => docs[m] ?? 0);
    return { page, total: docs.length };
  }

  /** A found page as the list sends it. */
  listing({ page, total }: Found): Listing {
    return { items: page.map((i) => this.at(i).json), total, fingerprint: page.join(",") };
  }

  /** The ids of a found page (the CSV export). */
  ids({ page }: Found): string[] {
    return page.map((i) => this.at(i).id);
  }

  /**
   * The filters as the columns' mask (1: passes what the columns hold) and, when other filters
   * are given (rarely), the check of those on the entry itself.
   */
  private filter(filters: ServiceFilters, now: number): { mask: Uint8Array; entryPasses: Predicate | null } {
    const { entries } = this;
    const checks = entryChecks(filters, now);
    const entryPasses: Predicate | null =
      checks.length === 0
        ? null
        : (i) => {
            const entry = entries[i] as ServiceEntry;
            for (const check of checks) if (!check(entry)) return false;
            return true;
          };
    return { mask: this.columns.matching(filters), entryPasses };
  }

  private at(i: number): ServiceEntry {
    const entry = this.entries[i];
    if (!entry) throw new Error(`no entry ${i}`);
    return entry;
  }

  /** Every entry in the order of a sort: missing values last in both directions, ties by id. */
  private sortOrder(order: ServiceOrder): { sorted: Int32Array; place: Int32Array } {
    const cacheKey = `${order.sort}:${order.order}`;
    const cached = this.orders.get(cacheKey);
    if (cached) return cached;
    const sign = order.order === "asc" ? 1 : -1;
    // Relevance without q ranks nothing: every entry ties and id decides (as the SQL did).
    const key = order.sort === "relevance" ? null : order.sort;
    const sorted = Int32Array.from(this.entries.keys()).sort((a, b) => {
      if (key !== null) {
        const rx = this.at(a).sortRanks[key];
        const ry = this.at(b).sortRanks[key];
        if ((rx === 0) !== (ry === 0)) return rx === 0 ? 1 : -1;
        if (rx !== ry) return sign * (rx - ry);
      }
      return (this.idPlace[a] ?? 0) - (this.idPlace[b] ?? 0);
    });
    const place = new Int32Array(sorted.length);
    sorted.forEach((entry, i) => {
      place[entry] = i;
    });
    const computed = { sorted, place };
    this.orders.set(cacheKey, computed);
    return computed;
  }
}
