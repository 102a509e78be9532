import { describe, expect, it } from "vitest";
import { nextPageOf, readContinuation } from "../../../src/sources/bazaar/pagination";
import { parseBazaarPage } from "../../../src/sources/bazaar/parse";
import type { BazaarContinuation } from "../../../src/sources/bazaar/types";

const FEED = "https://f.example/discovery/resources?type=http";
const PAGE = "https://f.example/discovery/resources?type=http&offset=0&limit=100";

/** A page's continuation as the page parser reads it (an empty items array beside the fields). */
const of = (fields: Record<string, unknown>) =>
  parseBazaarPage({ x402Version: 2, items: [], ...fields }).continuation;

describe("readContinuation: next links", () => {
  it.each([
    ["next at the top level", { next: "https://f.example/r?page=2" }, "https://f.example/r?page=2"],
    ["next in the pagination block", { pagination: { limit: 100, next: "/r?after=a1" } }, "/r?after=a1"],
    ["nextUrl", { nextUrl: "?after=a1" }, "?after=a1"],
    ["next_url", { pagination: { next_url: "r?after=a1" } }, "r?after=a1"],
    ["links.next (JSON:API)", { links: { self: "/r", next: "/r?page[after]=x" } }, "/r?page[after]=x"],
    ["links.next as { href }", { links: { next: { href: "/r?after=x" } } }, "/r?after=x"],
    ["a link with spaces around it", { next: "  /r?after=x " }, "/r?after=x"],
  ])("when the page gives %s, then that link is its continuation", (_shape, fields, href) => {
    expect(of(fields)).toEqual({ kind: "link", href });
  });

  it("when a page gives both a next link and a cursor, then the link wins (it names its own parameter)", () => {
    expect(of({ next: "/r?page_token=t2", nextCursor: "t2" })).toEqual({
      kind: "link",
      href: "/r?page_token=t2",
    });
  });

  it("when the next link is null but a cursor is given, then the cursor is the continuation", () => {
    expect(of({ next: null, next_cursor: "c2" })).toEqual({ kind: "cursor", cursor: "c2", param: "cursor" });
  });
});

describe("readContinuation: cursors", () => {
  it.each([
    ["nextCursor at the top level", { nextCursor: "abc" }, "abc", "cursor"],
    ["next_cursor in the pagination block", { pagination: { next_cursor: "abc" } }, "abc", "cursor"],
    [
      "cursor in the pagination block (the search answer)",
      { pagination: { limit: 2, cursor: "eyJ9" } },
      "eyJ9",
      "cursor",
    ],
    ["cursor at the top level", { cursor: "abc" }, "abc", "cursor"],
    ["nextPageToken (Google style)", { nextPageToken: "tok" }, "tok", "pageToken"],
    ["next_page_token", { pagination: { next_page_token: "tok" } }, "tok", "page_token"],
    ["a numeric cursor", { nextCursor: 300 }, "300", "cursor"],
  ])(
    "when the page gives %s, then it is the cursor, sent back as its parameter",
    (_shape, fields, cursor, param) => {
      expect(of(fields)).toEqual({ kind: "cursor", cursor, param });
    },
  );

  it.each([
    ["both in the block", { pagination: { cursor: "this", nextCursor: "next" } }],
    [
      "cursor in the block, nextCursor beside the items",
      { pagination: { cursor: "this" }, nextCursor: "next" },
    ],
    [
      "cursor beside the items, next_cursor in the block",
      { cursor: "this", pagination: { next_cursor: "next" } },
    ],
  ])(
    "when a page has a nextCursor and a cursor (%s), then nextCursor is the next page (cursor may be this one)",
    (_where, fields) => {
      expect(of(fields)).toEqual({ kind: "cursor", cursor: "next", param: "cursor" });
    },
  );
});

describe("readContinuation: hasMore and the end of the feed", () => {
  it.each([
    ["hasMore in the pagination block", { pagination: { limit: 100, offset: 0, hasMore: true } }],
    ["has_more beside the items", { has_more: true, limit: 100, offset: 0 }],
  ])("when the page gives %s and nothing else, then offset paging continues", (_shape, fields) => {
    expect(of(fields)).toEqual({ kind: "more" });
  });

  it("when hasMore is true beside a cursor, then the cursor is followed", () => {
    expect(of({ has_more: true, next_cursor: "c2" })).toEqual({
      kind: "cursor",
      cursor: "c2",
      param: "cursor",
    });
  });

  it.each<[string, Record<string, unknown>, BazaarContinuation]>([
    ["hasMore is false", { hasMore: false, next: "/r?after=x" }, { kind: "end", why: "hasMore is false" }],
    [
      "has_more is false in the block",
      { pagination: { has_more: false } },
      { kind: "end", why: "pagination.has_more is false" },
    ],
    ["the next link is null", { next: null }, { kind: "end", why: "next empty" }],
    [
      "the cursor is an empty string (Slack)",
      { pagination: { next_cursor: "" } },
      { kind: "end", why: "pagination.next_cursor empty" },
    ],
    [
      "links.next is null and nextCursor too",
      { links: { next: null }, nextCursor: null },
      { kind: "end", why: "links.next and nextCursor empty" },
    ],
  ])("when %s, then the feed says nothing follows", (_case, fields, expected) => {
    expect(of(fields)).toEqual(expected);
  });

  it("when the page names no continuation at all, then it says nothing (which is not the same as an end)", () => {
    expect(of({ pagination: { limit: 100, offset: 0 } })).toEqual({ kind: "none" });
    expect(readContinuation({ items: [], links: { self: "/r" } })).toEqual({ kind: "none" });
  });
});

describe("readContinuation: malformed values are refused, not guessed at", () => {
  it.each([
    ["hasMore as text", { hasMore: "yes" }, 'hasMore is not true or false: "yes"'],
    ["has_more as a number", { pagination: { has_more: 1 } }, "pagination.has_more is not true or false: 1"],
    ["next as a page number", { next: 2 }, "next is not a link: 2"],
    [
      "links.next as an object without href",
      { links: { next: { url: "/r" } } },
      'links.next is not a link: {"url":"/r"}',
    ],
    ["a cursor as an object", { nextCursor: { offset: 100 } }, 'nextCursor is not a cursor: {"offset":100}'],
    ["a negative numeric cursor", { pagination: { cursor: -1 } }, "pagination.cursor is not a cursor: -1"],
    ["a cursor as a boolean", { next_cursor: true }, "next_cursor is not a cursor: true"],
  ])("when the page gives %s, then its continuation is invalid and says why", (_case, fields, reason) => {
    expect(of(fields)).toEqual({ kind: "invalid", reason });
  });
});

describe("nextPageOf", () => {
  const here = { url: PAGE, offset: 0, received: 100 };

  it("when the link is relative, then it is resolved against the page's URL and followed as written", () => {
    expect(nextPageOf({ kind: "link", href: "?after=a1&limit=100" }, here, FEED, 100)).toEqual({
      kind: "page",
      url: "https://f.example/discovery/resources?after=a1&limit=100",
      offset: null,
      named: "https://f.example/discovery/resources?after=a1&limit=100",
    });
    expect(nextPageOf({ kind: "link", href: "/v2/r?p=2#frag" }, here, FEED, 100)).toMatchObject({
      url: "https://f.example/v2/r?p=2",
    });
  });

  it("when the link leads to another origin, then it is not followed and the reason names it", () => {
    expect(nextPageOf({ kind: "link", href: "https://evil.example/r?p=2" }, here, FEED, 100)).toEqual({
      kind: "stop",
      reason: "the next link leads to another origin (https://evil.example/r?p=2); not followed",
    });
    expect(nextPageOf({ kind: "link", href: "http://f.example/r?p=2" }, here, FEED, 100)).toMatchObject({
      kind: "stop",
    });
  });

  it("when the link is not an http(s) URL, then it is not followed", () => {
    expect(nextPageOf({ kind: "link", href: "javascript:alert(1)" }, here, FEED, 100)).toEqual({
      kind: "stop",
      reason: 'the next link is not http(s): "javascript:alert(1)"',
    });
    expect(nextPageOf({ kind: "link", href: "http://[::1" }, here, FEED, 100)).toEqual({
      kind: "stop",
      reason: 'the next link is not a URL: "http://[::1"',
    });
  });

  it("when a cursor is given, then it goes back in its parameter on the configured URL, with the page size and no offset", () => {
    expect(
      nextPageOf({ kind: "cursor", cursor: "a b/c", param: "cursor" }, here, `${FEED}&offset=0`, 100),
    ).toEqual({
      kind: "page",
      url: "https://f.example/discovery/resources?type=http&limit=100&cursor=a+b%2Fc",
      offset: null,
      named: 'cursor "a b/c"',
    });
  });

  it("when hasMore is true, then the next offset is this page's offset plus the items it held", () => {
    expect(nextPageOf({ kind: "more" }, { url: PAGE, offset: 200, received: 40 }, FEED, 100)).toEqual({
      kind: "page",
      url: "https://f.example/discovery/resources?type=http&offset=240&limit=100",
      offset: 240,
      named: "offset 240",
    });
  });

  it("when hasMore is true on an empty page or a page without offset, then the walk stops with the reason", () => {
    expect(nextPageOf({ kind: "more" }, { url: PAGE, offset: 300, received: 0 }, FEED, 100)).toEqual({
      kind: "stop",
      reason: "the page at offset 300 is empty but says hasMore",
    });
    expect(nextPageOf({ kind: "more" }, { url: PAGE, offset: null, received: 5 }, FEED, 100)).toMatchObject({
      kind: "stop",
    });
  });

  it("when the page says nothing follows or names nothing, then it is the end; an invalid continuation stops", () => {
    expect(nextPageOf({ kind: "end", why: "hasMore is false" }, here, FEED, 100)).toEqual({ kind: "end" });
    expect(nextPageOf({ kind: "none" }, here, FEED, 100)).toEqual({ kind: "end" });
    expect(nextPageOf({ kind: "invalid", reason: "next is not a link: 2" }, here, FEED, 100)).toEqual({
      kind: "stop",
      reason: `the page ${PAGE} names its next page unreadably: next is not a link: 2`,
    });
  });
});
