/**
 * URLs of a discovery feed. The configured URL may carry its own query (a `type=http` filter, a
 * page size); the walk keeps it and only sets `offset` and `limit`.
 */

/** The feed's identity (a source's base URL): the configured URL without fragment or walk position. */
export function feedBaseUrl(raw: string): string {
  const url = new URL(raw);
  url.hash = "";
  url.searchParams.delete("offset");
  return url.href;
}

/** Page size to ask for: a positive `limit` already on the configured URL wins over the default. */
export function pageSizeOf(feedUrl: string, fallback: number): number {
  const raw = new URL(feedUrl).searchParams.get("limit");
  const limit = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(limit) && limit > 0 ? limit : fallback;
}

export function feedPageUrl(feedUrl: string, offset: number, limit: number): string {
  const url = new URL(feedUrl);
  url.searchParams.set("offset", String(offset));
  url.searchParams.set("limit", String(limit));
  return url.href;
}

/**
 * A cursor page: the configured URL with the page size and the cursor; no offset, since the
 * cursor is the position.
 */
export function cursorPageUrl(feedUrl: string, param: string, cursor: string, limit: number): string {
  const url = new URL(feedUrl);
  url.searchParams.delete("offset");
  url.searchParams.set("limit", String(limit));
  url.searchParams.set(param, cursor);
  return url.href;
}

/** One key per page however its query is ordered, to notice a feed naming a page it named before. */
export function pageKey(raw: string): string {
  const url = new URL(raw);
  url.hash = "";
  url.searchParams.sort();
  return url.href;
}
