import type { EndpointSort } from "../catalogue/endpoint-queries";
import type { Paging } from "../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../catalogue/probe-stats";
import { type Amount, amountOf, compareAmounts, sameAmount } from "./amounts";
import type { EndpointFilters } from "./filters";
import { ordinals, pageByKeys } from "./page-order";
import type { Listing } from "./service-table";
import { acceptAll, type TextIndex } from "./text-index";
import type { TsQuery } from "./tsquery";

/**
 * Endpoint search answered from memory: the endpoints of listed service rows, loaded in the
 * default order (the busiest services' endpoints first, in page order), each with its item
 * serialised around the one field that depends on the time of the request (`verified`).
 */
export interface EndpointEntry {
  id: string;
  method: string;
  /** The service's category, lower-cased. */
  category: string | null;
  /** Networks of its payment options, CAIP-2 ids and names, lower-cased. */
  networks: readonly string[];
  /** Known prices of its payment options. */
  prices: readonly Amount[];
  /** The lowest of them: the `price` sort. */
  minPrice: Amount | null;
  /** Its latest live challenge differed from what the listing claims. */
  drift: boolean;
  /** Epoch milliseconds. */
  lastVerifiedAt: number | null;
  /** Its payability verdict: a standard x402 client can pay it. */
  payable: boolean;
  /** The item's JSON (UTF-8) up to, without, `verified`: `{"service_id":…,"description":…,` */
  jsonHead: Buffer;
  /** The item's JSON (UTF-8) after `verified`: `"last_verified_at":…,"payment_options":[…]}` */
  jsonTail: Buffer;
}

const VERIFIED = Buffer.from('"verified":true,');
const NOT_VERIFIED = Buffer.from('"verified":false,');

type EntryCheck = (entry: EndpointEntry) => boolean;

/** The filters as one check on an entry; null when none is given. Semantics as the services list's. */
function entryCheck(filters: EndpointFilters, now: number): EntryCheck | null {
  const checks: EntryCheck[] = [];
  const { method, verified, drift, payable } = filters;
  const category = filters.category?.toLowerCase();
  const network = filters.network?.toLowerCase();
  if (method !== undefined) checks.push((e) => e.method === method);
  if (category !== undefined) checks.push((e) => e.category === category);
  if (network !== undefined) checks.push((e) => e.networks.includes(network));
  if (filters.maxPrice !== undefined) {
    const max = amountOf(filters.maxPrice);
    const unpriced = filters.includeUnpriced === true;
    checks.push(
      (e) => e.prices.some((p) => compareAmounts(p, max) <= 0) || (unpriced && e.prices.length === 0),
    );
  }
  if (verified !== undefined) {
    const since = now - VERIFIED_WITHIN_MS;
    checks.push((e) => (e.lastVerifiedAt !== null && e.lastVerifiedAt > since) === verified);
  }
  if (drift !== undefined) checks.push((e) => e.drift === drift);
  if (payable !== undefined) checks.push((e) => e.payable === payable);
  if (checks.length === 0) return null;
  return (entry) => checks.every((c) => c(entry));
}

export class EndpointTable {
  /** Each entry's place in id order: the tie-break of equal ranks, as an integer. */
  private readonly idPlace: Int32Array;
  /** Entries by lowest price (unpriced last, ties in the default order), and each one's place. */
  private byPrice: { sorted: Int32Array; place: Int32Array } | null = null;
  /** Entry index by id, built on the first in-place refresh. */
  private positions: Map<string, number> | null = null;

  constructor(
    /** Replaced one by one in place (see replace). */
    private readonly entries: EndpointEntry[],
    /** Documents in the same order as the entries. */
    readonly text: TextIndex,
  ) {
    this.idPlace = ordinals(entries.length, (i) => entries[i]?.id ?? "");
  }

  get size(): number {
    return this.entries.length;
  }

  /** The index of the endpoint with this id. */
  indexOf(id: string): number | undefined {
    this.positions ??= new Map(this.entries.map((entry, i) => [entry.id, i]));
    return this.positions.get(id);
  }

  at(i: number): EndpointEntry {
    const entry = this.entries[i];
    if (!entry) throw new Error(`no endpoint entry ${i}`);
    return entry;
  }

  /** Puts a newer version of endpoint i (a probe's result) in its place; its text stays. */
  replace(i: number, entry: EndpointEntry): void {
    const old = this.at(i);
    if (old.id !== entry.id) throw new Error(`endpoint entry ${i} is not ${entry.id}`);
    this.entries[i] = entry;
    // The price order is computed again when next asked for.
    if (!sameAmount(old.minPrice, entry.minPrice)) this.byPrice = null;
  }

  private priceOrder(): { sorted: Int32Array; place: Int32Array } {
    if (this.byPrice) return this.byPrice;
    const sorted = Int32Array.from(this.entries.keys()).sort((a, b) => {
      const [x, y] = [this.entries[a]?.minPrice ?? null, this.entries[b]?.minPrice ?? null];
      if ((x === null) !== (y === null)) return x === null ? 1 : -1;
      const byAmount = x === null || y === null ? 0 : compareAmounts(x, y);
      return byAmount !== 0 ? byAmount : a - b;
    });
    const place = new Int32Array(sorted.length);
    sorted.forEach((entry, i) => {
      place[entry] = i;
    });
    this.byPrice = { sorted, place };
    return this.byPrice;
  }

  list(
    filters: EndpointFilters,
    sort: EndpointSort | undefined,
    paging: Paging,
    query: TsQuery | null | undefined,
    now: number,
  ): Listing {
    const check = entryCheck(filters, now);
    // Without filters, no entry is read (each is a cache miss, and a common word matches thousands).
    const accepts =
      check === null
        ? acceptAll
        : (i: number) => {
            const entry = this.entries[i];
            return entry !== undefined && check(entry);
          };
    const byPrice = sort === "price";
    let page: number[] = [];
    let total = 0;
    if (query === undefined) {
      // The entries are in the default order already; the price order is computed once.
      const order = byPrice ? this.priceOrder().sorted : null;
      for (let n = 0; n < this.entries.length; n += 1) {
        const i = order === null ? n : (order[n] as number);
        if (!accepts(i)) continue;
        if (total >= paging.offset && page.length < paging.limit) page.push(i);
        total += 1;
      }
    } else if (query !== null) {
      const { docs, ranks } = this.text.search(query, accepts, !byPrice);
      if (byPrice) {
        const { place } = this.priceOrder();
        const keys = new Float32Array(docs.length);
        for (let m = 0; m < docs.length; m += 1) keys[m] = place[docs[m] as number] as number;
        page = pageByKeys(docs, keys, false, this.idPlace, paging.offset, paging.limit);
      } else page = pageByKeys(docs, ranks, true, this.idPlace, paging.offset, paging.limit);
      total = docs.length;
    }
    const verifiedSince = now - VERIFIED_WITHIN_MS;
    const flags: string[] = [];
    const items = page.map((i) => {
      const entry = this.entries[i] as EndpointEntry;
      const verified = entry.lastVerifiedAt !== null && entry.lastVerifiedAt > verifiedSince;
      flags.push(verified ? "v" : "");
      return [entry.jsonHead, verified ? VERIFIED : NOT_VERIFIED, entry.jsonTail];
    });
    return { items, total, fingerprint: `${page.join(",")}|${flags.join(",")}` };
  }
}
