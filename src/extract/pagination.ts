import type { Element } from "cheerio";
import { isElement, type PageDom } from "./dom";
import { statedPageCount } from "./page-count";
import type { ListingPage } from "./types";
import { resolveUrl, sameSite, withoutFragment } from "./urls";

/**
 * Pagination of a listing: `rel=next/prev`, "Next"/"›"/"»" links, numbered links (possibly
 * elided "1 2 3 … 9"), "Page N of M" text and last-page links. Once a page number can be located
 * in a URL (`?page=3`, `/page/3`), the nearby pages a page does not link to are generated from that
 * pattern, so a crawl needs no luck with elided or missing links.
 */

export interface PaginationScan {
  listingUrls: string[];
  pageInfo: ListingPage["pageInfo"];
  /** The pagination links themselves, which must not be taken for services. */
  links: Set<Element>;
}

/**
 * Pages generated on either side of the current one. Each page carries only its neighbourhood, so
 * a walk reaches every page (each read page reveals the next ones) while one page's result stays
 * small: generating all M pages on every page cost O(M²) (2,000 pages: 4 million URLs, held in
 * the page cache and sent to Postgres, ~1 GB of the crawl's memory at 100,000 services).
 */
const GENERATED_WINDOW = 25;
const PAGE_KEYS = /^(?:page|p|pg|paged|pagenum|page_?number|page_?no|pn)$/i;
const NEXT_WORDS = /^(?:next|next page|older|older posts|older entries|load more)$/;
const PREV_WORDS = /^(?:prev|previous|previous page|newer|newer posts|newer entries)$/;

/** Where a page number sits in a URL: a query parameter or a path segment. */
type Slot = { kind: "query"; key: string } | { kind: "path"; index: number };

interface NumberedLink {
  el: Element;
  url: URL;
  page: number | null;
}

export function findPagination(dom: PageDom, pageUrl: string): PaginationScan {
  const here = new URL(pageUrl);
  const stated = statedPageCount(dom.text(dom.body));
  const candidates = paginationLinks(dom, here);
  const current = stated?.current ?? pageFromUrl(here) ?? ariaCurrent(dom) ?? assumeFirst(candidates, here);
  const pageInfo = stated ?? lastLinkCount(dom, candidates, current);

  for (const link of candidates) {
    const word = linkWord(dom, link.el);
    if (link.page === null && current !== null) {
      if (word === "next") link.page = current + 1;
      else if (word === "prev") link.page = current - 1;
    }
    if (word === "first") link.page = 1;
    if (word === "last" && pageInfo) link.page = pageInfo.total;
  }

  const template = pageTemplate(candidates, here, current, pageInfo !== null);

  const numbers = candidates.map((l) => l.page ?? 0);
  const total = pageInfo?.total ?? Math.max(0, current ?? 0, ...numbers);
  const first = Math.max(1, (current ?? 1) - GENERATED_WINDOW);
  const last = Math.min(total, (current ?? 1) + GENERATED_WINDOW);

  const byPage = new Map<number, string>();
  for (const link of candidates)
    if (link.page !== null && !byPage.has(link.page)) byPage.set(link.page, withoutFragment(link.url));
  const hereKey = withoutFragment(here);
  const urls: string[] = [];
  for (let n = first; n <= last; n++) {
    if (n === current) continue;
    const known = byPage.get(n);
    if (known) urls.push(known);
    else if (template) urls.push(withoutFragment(fill(template.url, template.slot, n)));
  }
  for (const link of candidates) urls.push(withoutFragment(link.url));
  const listingUrls = [...new Set(urls)].filter((u) => u !== hereKey);
  return { listingUrls, pageInfo, links: new Set(candidates.map((c) => c.el)) };
}

interface Template {
  url: URL;
  slot: Slot;
}

/**
 * How to address page N: from a link whose page number sits in its URL (the site's own
 * spelling), else from the current URL, else — when the page states "Page N of M" but shows no
 * pattern — the common `?page=N`.
 */
function pageTemplate(
  links: NumberedLink[],
  here: URL,
  current: number | null,
  stated: boolean,
): Template | null {
  for (const link of links) {
    const slot = link.page !== null ? slotOf(link.url, link.page) : null;
    if (slot) return { url: link.url, slot };
  }
  const slot = current !== null ? slotOf(here, current) : null;
  if (slot) return { url: here, slot };
  return stated ? { url: here, slot: { kind: "query", key: "page" } } : null;
}

/**
 * A "Last" link (or `rel=last`) whose URL carries a page number states the page count as surely
 * as "Page N of M" text does.
 */
function lastLinkCount(dom: PageDom, links: NumberedLink[], current: number | null): ListingPage["pageInfo"] {
  for (const link of links) {
    if (linkWord(dom, link.el) !== "last") continue;
    const total = pageFromUrl(link.url);
    if (total !== null && total >= 1 && (current === null || total >= current)) return { current, total };
  }
  return null;
}

/** The page number a listing URL carries (`?page=3`, `/page/3`), if any. */
export function pageFromUrl(url: URL): number | null {
  for (const [key, value] of url.searchParams)
    if (PAGE_KEYS.test(key) && /^\d+$/.test(value)) return Number(value);
  const m = /\/(?:page|p|pages)\/(\d+)\/?$/i.exec(url.pathname);
  return m ? Number(m[1]) : null;
}

/**
 * A URL that addresses a numbered listing page (`?page=2`, `/page/2`). Stricter than
 * `pageFromUrl`: a service link such as `/p/42` or `?p=42` must not be mistaken for one.
 */
export function hasPageMarker(url: URL): boolean {
  for (const [key, value] of url.searchParams) {
    if (/^(?:page|pg|paged|pagenum|page_?number|page_?no)$/i.test(key) && /^\d+$/.test(value)) return true;
  }
  return /\/pages?\/\d+\/?$/i.test(url.pathname);
}

/**
 * A listing URL without a page number is the first page ("/directory" next to "/directory/page/2"),
 * unless a link labelled "1" leads somewhere else.
 */
function assumeFirst(links: NumberedLink[], here: URL): number | null {
  const hereKey = withoutFragment(here);
  const firstElsewhere = links.some((l) => l.page === 1 && withoutFragment(l.url) !== hereKey);
  return links.length > 0 && !firstElsewhere ? 1 : null;
}

function ariaCurrent(dom: PageDom): number | null {
  const el = dom
    .$('[aria-current="page"]')
    .toArray()
    .find((e) => /^\d+$/.test(dom.text(e)));
  return el ? Number(dom.text(el)) : null;
}

function linkLabel(dom: PageDom, el: Element): string {
  return dom.text(el) || el.attribs["aria-label"] || el.attribs.title || "";
}

function linkWord(dom: PageDom, el: Element): "next" | "prev" | "first" | "last" | null {
  const rel = (el.attribs.rel ?? "").toLowerCase().split(/\s+/);
  if (rel.includes("last")) return "last";
  if (rel.includes("next")) return "next";
  if (rel.includes("prev") || rel.includes("previous")) return "prev";
  // Only whole labels count: a service called "Next Oracle" is not a next-page link.
  const raw = linkLabel(dom, el).toLowerCase();
  const core = raw
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .replace(/\s+/g, " ");
  // "»»", "»|", "⇥": to the end; checked before "»" alone, which means the next page.
  if (core === "" && /^\s*(?:»»|»\||>\||⇥|⏭)\s*$/.test(raw)) return "last";
  if (core === "" && /^\s*(?:««|\|«|\|<|⇤|⏮)\s*$/.test(raw)) return "first";
  if (NEXT_WORDS.test(core) || (core === "" && /[›»→⟩>]/.test(raw))) return "next";
  if (PREV_WORDS.test(core) || (core === "" && /[‹«←⟨<]/.test(raw))) return "prev";
  if (core === "first" || core === "first page") return "first";
  if (core === "last" || core === "last page") return "last";
  return null;
}

/** Same-site links that read as pagination: rel=next/prev, next/previous words, page numbers. */
function paginationLinks(dom: PageDom, here: URL): NumberedLink[] {
  const found: NumberedLink[] = [];
  const numbered: NumberedLink[] = [];
  const anchors = dom.$("a[href], link[rel][href]").toArray().filter(isElement);
  for (const el of anchors) {
    if (dom.invisible(el) && el.name !== "link") continue;
    const url = resolveUrl(el.attribs.href, here.href);
    if (!url || !sameSite(url, here)) continue;
    const label = linkLabel(dom, el);
    if (/^\d{1,5}$/.test(label)) {
      numbered.push({ el, url, page: Number(label) });
      continue;
    }
    if (linkWord(dom, el)) found.push({ el, url, page: null });
    else if (hasPageMarker(url) && sameListing(url, here)) found.push({ el, url, page: pageFromUrl(url) });
  }
  // A linked number is a page link when its URL holds the number and it is grouped with other
  // numbers (or the URL says "page"); a lone "2" linking to /services/2 is an id, not a page.
  // Numbers grouped with confirmed ones count too: "1" often links to the bare listing URL.
  const near = (a: NumberedLink, b: NumberedLink): boolean =>
    a !== b && ancestors(a.el, 2).some((x) => ancestors(b.el, 2).includes(x));
  const confirmed = numbered.filter((l) => {
    const slot = l.page !== null ? slotOf(l.url, l.page) : null;
    if (!slot) return false;
    return pageNamed(l.url, slot) || numbered.some((other) => near(l, other));
  });
  for (const l of numbered) {
    if (confirmed.includes(l) || confirmed.some((c) => near(c, l))) found.push(l);
  }
  return found.sort((a, b) => dom.order(a.el) - dom.order(b.el));
}

/**
 * "Load more services", "Show more", "See all results": however a link words it, a link to this
 * very listing with only its page number changed (`/services?network=base&page=2` from
 * `/services?network=base`) is the listing's next page. Other filters or sorts must match, so a
 * link to a differently filtered listing is not followed as a page of this one.
 */
function sameListing(url: URL, here: URL): boolean {
  return listingKey(url) === listingKey(here);
}

/** The URL without its page number (query key or trailing /page/N), fragment and parameter order. */
function listingKey(url: URL): string {
  const params = [...url.searchParams.entries()]
    .filter(([key, value]) => !(PAGE_KEYS.test(key) && /^\d+$/.test(value)))
    .map(([key, value]) => `${key}=${value}`)
    .sort();
  const path = url.pathname.replace(/\/pages?\/\d+\/?$/i, "").replace(/\/$/, "");
  return `${url.host}${path}?${params.join("&")}`;
}

function ancestors(el: Element, depth: number): Element[] {
  const out: Element[] = [];
  for (let p = el.parent; p && out.length < depth; p = p.parent) if (isElement(p)) out.push(p);
  return out;
}

/** The one place in `url` that holds `page`, preferring page-named parameters. */
function slotOf(url: URL, page: number): Slot | null {
  const value = String(page);
  const keys = [...url.searchParams.entries()].filter(([, v]) => v === value).map(([k]) => k);
  const named = keys.find((k) => PAGE_KEYS.test(k));
  if (named) return { kind: "query", key: named };
  const segs = url.pathname.split("/");
  const index = segs.lastIndexOf(value);
  if (index > 0) return { kind: "path", index };
  return keys.length === 1 && keys[0] ? { kind: "query", key: keys[0] } : null;
}

function pageNamed(url: URL, slot: Slot): boolean {
  if (slot.kind === "query") return PAGE_KEYS.test(slot.key);
  const before = url.pathname.split("/")[slot.index - 1] ?? "";
  return /^(?:page|p|pages)$/i.test(before);
}

function fill(template: URL, slot: Slot, page: number): URL {
  const url = new URL(template.href);
  if (slot.kind === "query") url.searchParams.set(slot.key, String(page));
  else {
    const segs = url.pathname.split("/");
    segs[slot.index] = String(page);
    url.pathname = segs.join("/");
  }
  return url;
}
