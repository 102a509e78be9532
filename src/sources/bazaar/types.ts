import type { CallDescription } from "../../payments/call-description";
import type { PaymentOption } from "../../payments/types";

/** One paid resource as listed by an x402 Bazaar discovery feed, normalised. */
export interface BazaarResource {
  /** Absolute http(s) URL, fragment dropped; an MCP tool's is its server's with the tool as fragment. */
  resourceUrl: string;
  /** Scheme, host and (non-default) port, e.g. "https://api.example.com:8443". */
  origin: string;
  /** Lower-case host name without the port (the port is in `origin`). */
  host: string;
  /** Upper-case HTTP method; GET when the feed does not say; MCP for an MCP tool. */
  method: string;
  description: string | null;
  serviceName: string | null;
  /** An http(s) URL; anything else is dropped with a warning. */
  iconUrl: string | null;
  /** Lower-cased, trimmed, deduplicated. */
  tags: string[];
  lastUpdated: Date | null;
  totalCalls30d: number | null;
  uniquePayers30d: number | null;
  lastCalledAt: Date | null;
  paymentOptions: PaymentOption[];
  /** How to call it, as the item publishes it (bazaar extension, v1 outputSchema or metadata). */
  call: CallDescription | null;
  /** Item-level oddities; option-level ones sit on each payment option. */
  warnings: string[];
}

export interface BazaarPagination {
  limit: number;
  offset: number;
  total: number;
}

/** An item that was skipped; `index` is its position in the page's `items`. */
export interface BazaarProblem {
  index: number;
  reason: string;
}

/**
 * How a page that states no total names the page after it. A link is kept as written (it may be
 * relative); the walker resolves it against the page's own URL.
 */
export type BazaarContinuation =
  /** The page says nothing about a next page. */
  | { kind: "none" }
  /** The page says nothing follows: `hasMore: false`, or a next link or cursor that is null or empty. */
  | { kind: "end"; why: string }
  | { kind: "link"; href: string }
  /** `param` is the query parameter the cursor goes back in (see readContinuation). */
  | { kind: "cursor"; cursor: string; param: string }
  /** `hasMore: true` and nothing else: the next page is at this page's offset plus its items. */
  | { kind: "more" }
  /** A continuation field holds something unusable; paging on would be a guess. */
  | { kind: "invalid"; reason: string };

export interface BazaarPage {
  items: BazaarResource[];
  /** Null when the page has no usable pagination block, so the crawler cannot page on. */
  pagination: BazaarPagination | null;
  /** The page's own word on what follows it; used only when no total is stated. */
  continuation: BazaarContinuation;
  problems: BazaarProblem[];
}
