import { cursorPageUrl, feedPageUrl } from "./feed-url";
import { dig, isRecord, type Json } from "./fields";
import { ContinuationCursorSchema, ContinuationLinkSchema, HasMoreSchema } from "./schema";
import type { BazaarContinuation, BazaarPagination } from "./types";

/**
 * Offsets of every page after the given one, up to `total`, so a crawler can walk the whole
 * feed instead of stopping at the first page.
 *
 * `received` is how many items the page actually held (parsed items plus problems). A server
 * that caps the page size below the requested `limit` may still echo the requested limit;
 * stepping by that would silently skip items, so the smaller of the two is used.
 */
export function nextOffsets(pagination: BazaarPagination, received?: number): number[] {
  const { limit, offset, total } = pagination;
  const step = received !== undefined && received > 0 ? Math.min(limit, received) : limit;
  if (!Number.isInteger(step) || step <= 0) return [];
  const offsets: number[] = [];
  for (let next = offset + step; next < total; next += step) offsets.push(next);
  return offsets;
}

const LINK_FIELDS = ["next", "nextUrl", "next_url"];
/**
 * Cursor fields, each with the query parameter its value goes back in: the field's name without
 * "next" (Slack's `next_cursor` goes back as `cursor`, Google's `nextPageToken` as `pageToken`).
 * A bare `cursor` goes back as `cursor`. When a page also gives a next link, the link is followed
 * instead: it names its parameter itself.
 */
const CURSOR_FIELDS: Record<string, string> = {
  nextCursor: "cursor",
  next_cursor: "cursor",
  nextPageToken: "pageToken",
  next_page_token: "page_token",
  cursor: "cursor",
};
const MORE_FIELDS = ["hasMore", "has_more"];

type Field = { name: string; value: unknown };

/**
 * Present fields among `names`, in the order of `names` (which field says it matters more than
 * where: a `nextCursor` beside the items outranks a `cursor` in the block, which may name this
 * page), each first in the `pagination` block, then beside the items.
 */
function fieldsOf(page: Json, names: string[]): Field[] {
  return names
    .flatMap((name) => [
      { name: `pagination.${name}`, value: dig(page, "pagination", name) },
      { name, value: page[name] },
    ])
    .filter((field) => field.value !== undefined);
}

const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 80);

/**
 * What a page says about the page after it, for feeds that state no total: a next link
 * (absolute or relative; `next`, `nextUrl`, `next_url`, or JSON:API's `links.next`, also as
 * `{ href }`), a cursor (`nextCursor`, `next_cursor`, `nextPageToken`, `next_page_token`,
 * `cursor`), or `hasMore`/`has_more`; each in the `pagination` block or beside the items.
 * `hasMore: false` ends the feed whatever else the page says; otherwise a link wins over a cursor,
 * and a cursor over bare `hasMore: true` (offset paging).
 */
export function readContinuation(page: Json): BazaarContinuation {
  const more = fieldsOf(page, MORE_FIELDS)[0];
  let hasMore = false;
  if (more !== undefined) {
    const parsed = HasMoreSchema.safeParse(more.value);
    if (!parsed.success)
      return { kind: "invalid", reason: `${more.name} is not true or false: ${shown(more.value)}` };
    if (!parsed.data) return { kind: "end", why: `${more.name} is false` };
    hasMore = true;
  }

  const links = fieldsOf(page, LINK_FIELDS);
  if (isRecord(page.links) && page.links.next !== undefined)
    links.push({ name: "links.next", value: page.links.next });
  const link = links[0];
  if (link !== undefined) {
    const parsed = ContinuationLinkSchema.safeParse(link.value);
    if (!parsed.success)
      return { kind: "invalid", reason: `${link.name} is not a link: ${shown(link.value)}` };
    const href = parsed.data?.trim() ?? "";
    if (href !== "") return { kind: "link", href };
  }

  const cursor = fieldsOf(page, Object.keys(CURSOR_FIELDS))[0];
  if (cursor !== undefined) {
    const parsed = ContinuationCursorSchema.safeParse(cursor.value);
    if (!parsed.success)
      return { kind: "invalid", reason: `${cursor.name} is not a cursor: ${shown(cursor.value)}` };
    const param = CURSOR_FIELDS[cursor.name.replace(/^pagination\./, "")] ?? "cursor";
    if (parsed.data !== null && parsed.data !== "") return { kind: "cursor", cursor: parsed.data, param };
  }

  if (hasMore) return { kind: "more" };
  const said = [link, cursor].filter((field) => field !== undefined).map((field) => field.name);
  return said.length > 0 ? { kind: "end", why: `${said.join(" and ")} empty` } : { kind: "none" };
}

/** The page just read, as the walker knows it. */
export interface PageHere {
  url: string;
  /** Null when the page was reached by a link or a cursor. */
  offset: number | null;
  /** Items the page held (parsed items plus problems). */
  received: number;
}

export type NextPage =
  | { kind: "page"; url: string; offset: number | null; named: string }
  | { kind: "end" }
  | { kind: "stop"; reason: string };

/**
 * The request for the page after `here`, or why there is none. A relative link is resolved
 * against the page's own URL; a link to another origin is not followed (the feed would be
 * sending our requests, and the catalogue's trust in it, to a server nobody configured).
 */
export function nextPageOf(
  continuation: BazaarContinuation,
  here: PageHere,
  feedUrl: string,
  limit: number,
): NextPage {
  switch (continuation.kind) {
    case "none":
    case "end":
      return { kind: "end" };
    case "invalid":
      return {
        kind: "stop",
        reason: `the page ${here.url} names its next page unreadably: ${continuation.reason}`,
      };
    case "link":
      return followLink(continuation.href, here.url);
    case "cursor": {
      const url = cursorPageUrl(feedUrl, continuation.param, continuation.cursor, limit);
      return { kind: "page", url, offset: null, named: `cursor ${shown(continuation.cursor)}` };
    }
    case "more": {
      if (here.offset === null)
        return { kind: "stop", reason: `the page ${here.url} says hasMore but names no next page or offset` };
      if (here.received === 0)
        return { kind: "stop", reason: `the page at offset ${here.offset} is empty but says hasMore` };
      const offset = here.offset + here.received;
      return { kind: "page", url: feedPageUrl(feedUrl, offset, limit), offset, named: `offset ${offset}` };
    }
  }
}

function followLink(href: string, pageUrl: string): NextPage {
  let url: URL;
  try {
    url = new URL(href, pageUrl);
  } catch {
    return { kind: "stop", reason: `the next link is not a URL: ${shown(href)}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { kind: "stop", reason: `the next link is not http(s): ${shown(href)}` };
  if (url.origin !== new URL(pageUrl).origin)
    return { kind: "stop", reason: `the next link leads to another origin (${url.href}); not followed` };
  url.hash = "";
  return { kind: "page", url: url.href, offset: null, named: url.href };
}
