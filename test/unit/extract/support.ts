import { type ExtractOptions, extractDetail, extractListing, parsePage } from "../../../src/extract";
import type { ListingPage, RawServiceDetail } from "../../../src/extract/types";

/** Where the fixture directory pretends to live; renderers only emit root-relative links. */
export const ORIGIN = "https://directory.test";

export const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

const orNull = (text: string | null): string | null => (text === null ? null : collapse(text));

/** The comparison the brief asks for: raw values after collapsing whitespace (no-break spaces too). */
export function collapsedDetail(detail: RawServiceDetail): RawServiceDetail {
  return {
    name: orNull(detail.name),
    domain: orNull(detail.domain),
    description: orNull(detail.description),
    category: orNull(detail.category),
    endpoints: detail.endpoints.map((e) => ({
      method: orNull(e.method),
      url: collapse(e.url),
      description: orNull(e.description),
    })),
    stats: Object.fromEntries(Object.entries(detail.stats).map(([k, v]) => [k, collapse(v)])),
    tags: detail.tags.map(collapse),
  };
}

export function detailOf(html: string, path = "/service", options?: ExtractOptions): RawServiceDetail {
  return extractDetail(parsePage(html), new URL(path, ORIGIN).href, options);
}

export function listingOf(html: string, path = "/", options?: ExtractOptions): ListingPage {
  return extractListing(parsePage(html), new URL(path, ORIGIN).href, options);
}

/** A minimal page around a fragment, for hand-written edge cases. */
export function page(body: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}
