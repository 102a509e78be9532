/**
 * What a search can ask for besides its words: the filters of the service and endpoint searches.
 * A new filter is declared here and checked where its index answers it (service-columns.ts or
 * service-table.ts for services, endpoint-table.ts for endpoints); the HTTP query schemas map
 * their parameters onto these fields.
 */

export type ServiceStatusFilter = "listed" | "delisted" | "all";

export interface ServiceFilters {
  q?: string;
  /** Compared case-insensitively. */
  category?: string;
  /** Lower-case, as tags are stored; every one must be present. */
  tags?: string[];
  /** Upper-case, as methods are stored; some endpoint must have it. */
  method?: string;
  /** Lower-case host name, as domains are stored. */
  domain?: string;
  minUptime?: number;
  maxResponseMs?: number;
  /** Exact decimal text, compared as numeric in SQL. */
  minVolume?: string;
  minTx?: number;
  minPayers?: number;
  /** On info_updated_at, the directory's "information updated" date. */
  updatedSince?: Date;
  status: ServiceStatusFilter;
  /** CAIP-2 id (eip155:8453) or network name (base); any case. */
  network?: string;
  /** Asset address or symbol (USDC); any case. */
  asset?: string;
  /** Exact decimal text: some payment option costs at most this many USDC per call. */
  maxPrice?: string;
  /** With maxPrice: also entries none of whose payment options has a known price. */
  includeUnpriced?: boolean;
  /** Any case: addresses are compared without their checksum casing. */
  payTo?: string;
  /** A source kind (html_directory, bazaar, origin_manifest) or a source's base URL. */
  source?: string;
  /** true: some endpoint of the entry had a valid x402 challenge within 24 hours; false: none had. */
  verified?: boolean;
  /** true: some endpoint's latest live challenge differed from its listing; false: none's did. */
  drift?: boolean;
}

export interface EndpointFilters {
  q?: string;
  /** Upper-case, as methods are stored. */
  method?: string;
  /** The service's category, compared case-insensitively. */
  category?: string;
  /** Exact decimal text: some payment option of the endpoint costs at most this many USDC per call. */
  maxPrice?: string;
  /** With maxPrice: also endpoints none of whose payment options has a known price. */
  includeUnpriced?: boolean;
  /** CAIP-2 id or network name, any case: some payment option is on it. */
  network?: string;
  /** true: a valid x402 challenge within 24 hours; false: none. */
  verified?: boolean;
  /** true: the latest live challenge differed from the listing; false: it did not (or none was seen). */
  drift?: boolean;
  /** Only endpoints whose payability verdict is this. */
  payable?: boolean;
}
