import type { EndpointFilters } from "../catalogue/endpoint-queries";
import type { Paging } from "../catalogue/paging";
import { VERIFIED_WITHIN_MS } from "../catalogue/probe-stats";
import { ordinals, pageByKeys } from "./page-order";
import type { Listing } from "./service-index";
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
  /** Epoch milliseconds. */
  lastVerifiedAt: number | null;
  payable: boolean;
  /** The item's JSON (UTF-8) up to, without, `verified`: `{"service_id":…,"description":…,` */
  jsonHead: Buffer;
  /** The item's JSON (UTF-8) after `verified`: `"last_verified_at":…,"payment_options":[…]}` */
  jsonTail: Buffer;
}

const VERIFIED = Buffer.from('"verified":true,');
const NOT_VERIFIED = Buffer.from('"verified":false,');

export class EndpointIndex {
  /** Each entry's place in id order: the tie-break of equal ranks, as an integer. */
  private readonly idPlace: Int32Array;

  constructor(
    private readonly entries: readonly EndpointEntry[],
    /** Documents in the same order as the entries. */
    readonly text: TextIndex,
  ) {
    this.idPlace = ordinals(entries.length, (i) => entries[i]?.id ?? "");
  }

  get size(): number {
    return this.entries.length;
  }

  list(filters: EndpointFilters, paging: Paging, query: TsQuery | null | undefined, now: number): Listing {
    const category = filters.category?.toLowerCase();
    // Without filters, no entry is read (each is a cache miss, and a common word matches thousands).
    const accepts =
      filters.method === undefined && category === undefined && filters.payable === undefined
        ? acceptAll
        : (i: number) => {
            const entry = this.entries[i];
            return (
              entry !== undefined &&
              (filters.method === undefined || entry.method === filters.method) &&
              (category === undefined || entry.category === category) &&
              (filters.payable === undefined || entry.payable === filters.payable)
            );
          };
    let page: number[] = [];
    let total = 0;
    if (query === undefined) {
      // The entries are in the default order already.
      for (let i = 0; i < this.entries.length; i += 1) {
        if (!accepts(i)) continue;
        if (total >= paging.offset && page.length < paging.limit) page.push(i);
        total += 1;
      }
    } else if (query !== null) {
      const { docs, ranks } = this.text.search(query, accepts);
      page = pageByKeys(docs, ranks, true, this.idPlace, paging.offset, paging.limit);
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
