/**
 * What the extraction layer reads off a directory's pages: raw text only, no interpretation.
 * Turning text into typed values is the normalise layer's job (src/normalise), so both can be
 * tested separately and a parse failure can be reported with the exact text that caused it.
 */

/** One service as shown on a listing page. */
export interface ListingEntry {
  /** Absolute URL of the service's detail page, fragment removed. */
  detailUrl: string;
  name: string | null;
  domain: string | null;
  description: string | null;
}

/** What one listing page tells us. */
export interface ListingPage {
  entries: ListingEntry[];
  /** Absolute URLs of other listing pages discovered on this page (next link, numbered links, pattern). */
  listingUrls: string[];
  /** The page count the listing states ("Page N of M", a result range, a last-page link), and which page this is when it says. */
  pageInfo: { current: number | null; total: number } | null;
}

/** The statistics a detail page shows, keyed by meaning. Values are the raw visible text. */
export type StatField =
  | "uptime30d"
  | "avgResponse30d"
  | "infoUpdated"
  | "volume30d"
  | "txCount30d"
  | "payerCount30d";

export interface RawEndpoint {
  method: string | null;
  /** As written on the page: may be relative. */
  url: string;
  description: string | null;
}

/** Everything a detail page shows about one service, as raw text. */
export interface RawServiceDetail {
  name: string | null;
  domain: string | null;
  description: string | null;
  category: string | null;
  endpoints: RawEndpoint[];
  stats: Partial<Record<StatField, string>>;
  tags: string[];
}
