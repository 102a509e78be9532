import type { AnyNode, CheerioAPI, Element } from "cheerio";
import {
  byName,
  childElements,
  closest,
  createPageDom,
  headerRow,
  isElement,
  isHeading,
  type PageDom,
  textOwners,
} from "./dom";
import { classifyLabel, type ExtractOptions, type LabelAliases, type LabelField } from "./labels";
import { findPagination, hasPageMarker } from "./pagination";
import { findPairs } from "./pairs";
import { isSummaryText } from "./summary";
import type { ListingEntry, ListingPage } from "./types";
import {
  isCategoryUrl,
  isFilterUrl,
  isSitePage,
  isSocialHost,
  isTagUrl,
  looksLikeHost,
  resolveUrl,
  sameSite,
  urlShape,
  withoutFragment,
} from "./urls";

/**
 * Reads a listing page: which links lead to service detail pages, what each entry shows, and
 * where the other listing pages are. Service links are recognised by repetition: the detail
 * pages of one directory share a URL shape (/services/*, /s/*, /service?id), and each sits in
 * its own entry (row, item, card) with more text around it. Site pages, tag and filter links,
 * pagination and other sites are discarded before the shapes are compared.
 */

interface Candidate {
  el: Element;
  url: string;
}

interface Group {
  shape: string;
  /** Links per detail URL, in document order of first appearance. */
  byUrl: Map<string, Element[]>;
}

export function extractListing($: CheerioAPI, pageUrl: string, options: ExtractOptions = {}): ListingPage {
  const dom = createPageDom($);
  const base = documentBase(dom, pageUrl);
  const pagination = findPagination(dom, pageUrl);
  const best = bestGroup(dom, candidates(dom, pageUrl, base, pagination.links, pagination.listingUrls));
  const entries: ListingEntry[] = [];
  if (best) {
    const { group, containers } = best;
    const fits = repeatedStructure(containers);
    for (const [url, links] of group.byUrl) {
      const container = containers.get(url) ?? links[0];
      if (container && fits(container))
        entries.push(readEntry(dom, url, container, links, options.aliases ?? {}));
    }
  }
  return { entries, listingUrls: pagination.listingUrls, pageInfo: pagination.pageInfo };
}

/** Where an element sits: its tag and its two parents' tags ("li<ul<main"). */
function structureOf(el: Element): string {
  const names = [el.name];
  for (let p = el.parent; p && names.length < 3; p = p.parent) if (isElement(p)) names.push(p.name);
  return names.join("<");
}

/**
 * When most entries sit in one repeated structure (three or more, at least 60%), a link of the
 * same URL shape outside it ("/leaderboard" next to root-level "/giftly" entries) is not an
 * entry. Without such a majority every link of the group is kept.
 */
function repeatedStructure(containers: Map<string, Element>): (el: Element) => boolean {
  const counts = new Map<string, number>();
  for (const el of containers.values()) counts.set(structureOf(el), (counts.get(structureOf(el)) ?? 0) + 1);
  const [mode, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  if (count < 3 || count < 0.6 * containers.size) return () => true;
  return (el) => structureOf(el) === mode;
}

/** `<base href>` changes how relative links resolve. */
function documentBase(dom: PageDom, pageUrl: string): string {
  const href = dom.$("base[href]").attr("href");
  return resolveUrl(href, pageUrl)?.href ?? pageUrl;
}

function candidates(
  dom: PageDom,
  pageUrl: string,
  base: string,
  paginationLinks: Set<Element>,
  listingUrls: string[],
): Candidate[] {
  const here = new URL(pageUrl);
  const hereKey = withoutFragment(here);
  const listing = new Set(listingUrls);
  const out: Candidate[] = [];
  for (const el of dom.contentElements()) {
    if (el.name !== "a" || paginationLinks.has(el) || ACTION_LINK.test(dom.text(el))) continue;
    const url = resolveUrl(el.attribs.href, base);
    if (!url || !sameSite(url, here)) continue;
    // "www.example.com" and "example.com" are one site; one spelling keeps one entry per service.
    url.host = here.host;
    const key = withoutFragment(url);
    if (key === hereKey || listing.has(key)) continue;
    if (isSitePage(url) || isFilterUrl(url) || hasPageMarker(url)) continue;
    out.push({ el, url: key });
  }
  return out;
}

/**
 * Groups links by URL shape and keeps the group that looks most like a list of entries: many
 * distinct targets, each with descriptive text around it. Top-level one-segment shapes (/about,
 * /pricing) are how site pages look, so they count half.
 */
function bestGroup(
  dom: PageDom,
  links: Candidate[],
): { group: Group; containers: Map<string, Element> } | null {
  const groups = new Map<string, Group>();
  for (const { el, url } of links) {
    const shape = urlShape(new URL(url));
    const group = groups.get(shape) ?? { shape, byUrl: new Map() };
    groups.set(shape, group);
    const list = group.byUrl.get(url) ?? [];
    list.push(el);
    group.byUrl.set(url, list);
  }
  let best: { group: Group; containers: Map<string, Element> } | null = null;
  let bestScore = 0;
  for (const group of groups.values()) {
    const containers = entryContainers(dom, group);
    let rich = 0;
    let titled = 0;
    for (const [url, els] of group.byUrl) {
      const container = containers.get(url);
      const linkText = els.map((e) => dom.text(e)).join(" ");
      if (container && dom.text(container).length - linkText.length >= 20) rich++;
      if (els.some((e) => isEntryLink(dom, e))) titled++;
    }
    const topLevel = /^\/\*$/.test(group.shape) ? 0.5 : 1;
    // Ties between link kinds in the same cards ("Compare", "/go/x") go to the one carrying the name.
    const score = (group.byUrl.size + rich + titled / 2) * topLevel;
    if (score > bestScore) {
      best = { group, containers };
      bestScore = score;
    }
  }
  return best;
}

/**
 * A link that opens the entry: it shows a name (a few words, in a heading or bold) or says
 * "Details"/"View". "Visit site" and bare arrows usually lead to the service itself instead.
 */
function isEntryLink(dom: PageDom, link: Element): boolean {
  const text = dom.text(link);
  if (DETAIL_LINK.test(text)) return true;
  if (!/\p{L}{2}/u.test(text) || text.length > 80 || VISIT_LINK.test(text) || looksLikeHost(text))
    return false;
  return (
    closest(link, (el) => isHeading(el) || el.name === "strong" || el.name === "b") !== null ||
    text.split(" ").length <= 4
  );
}

/** Links that act on an entry rather than open it. */
const ACTION_LINK =
  /^(?:compare|add to (?:list|compare|favou?rites)|report|share|save|bookmark|favou?rite|follow|vote|upvote|edit|claim|flag|copy)\b/i;

/** Containers never merged into one entry. */
const LIST_TAGS = new Set(["ul", "ol", "dl", "table", "tbody", "thead", "tfoot", "main", "body", "html"]);
/** A row, item or article is one whole entry. */
const ENTRY_TAGS = new Set(["li", "tr", "article"]);

/** For each detail URL, the largest element around its links that holds no other entry. */
function entryContainers(dom: PageDom, group: Group): Map<string, Element> {
  const urlsUnder = new Map<AnyNode, Set<string>>();
  for (const [url, els] of group.byUrl) {
    for (const el of els) {
      for (let cur: AnyNode | null = el; cur; cur = cur.parent) {
        const set = urlsUnder.get(cur) ?? new Set<string>();
        set.add(url);
        urlsUnder.set(cur, set);
      }
    }
  }
  const out = new Map<string, Element>();
  for (const [url, els] of group.byUrl) {
    const first = els[0];
    if (!first) continue;
    let cur: Element = first;
    while (!ENTRY_TAGS.has(cur.name)) {
      const parent = cur.parent;
      if (!parent || !isElement(parent) || LIST_TAGS.has(parent.name)) break;
      if ((urlsUnder.get(parent)?.size ?? 0) > 1 || dom.text(parent).length > 2000) break;
      cur = parent;
    }
    out.set(url, cur);
  }
  return out;
}

/** Link texts that open a detail page without naming it. */
const DETAIL_LINK =
  /^(?:view|details?|more|more info|info|open|read more|see more|learn more|view details|see details|view service)\b/i;
/** Link texts that lead to the service's own site. */
const VISIT_LINK = /^(?:visit|go|website|homepage|try it|launch|open site)\b|^[↗→›»]+$/i;
const GENERIC_LINK = new RegExp(`${DETAIL_LINK.source}|${VISIT_LINK.source}|^[→›»↗]+$`, "i");

function readEntry(
  dom: PageDom,
  url: string,
  container: Element,
  links: Element[],
  aliases: LabelAliases,
): ListingEntry {
  const pairs = new Map<LabelField, string>();
  for (const p of findPairs(dom, container, { aliases }))
    if (!pairs.has(p.field)) pairs.set(p.field, p.value);
  const columns = columnValues(dom, container, aliases);
  const owners = textOwners(dom, container).filter((el) => !insideMetaLink(el, url));

  const name = pairs.get("name") ?? columns.get("name") ?? entryName(dom, container, url, links, owners);
  const domain =
    pairs.get("domain") ??
    columns.get("domain") ??
    dom
      .contentElements(container)
      .map((el) => dom.text(el))
      .find((t) => looksLikeHost(t) && t !== name) ??
    externalHost(dom, container, url);
  const description =
    pairs.get("description") ??
    columns.get("description") ??
    entrySummary(dom, owners, [name, domain], aliases);
  return { detailUrl: url, name, domain, description };
}

/** Tag and category chips inside an entry are not its summary. */
function insideMetaLink(el: Element, pageUrl: string): boolean {
  const href = closest(el, byName("a"))?.attribs.href ?? "";
  return href !== "" && (isTagUrl(href, pageUrl) || isCategoryUrl(href, pageUrl));
}

/** In a table row, the column headers say which cell is the name, domain or summary. */
function columnValues(dom: PageDom, container: Element, aliases: LabelAliases): Map<LabelField, string> {
  const out = new Map<LabelField, string>();
  const row = closest(container, byName("tr"));
  if (!row) return out;
  const table = closest(row, byName("table"));
  const header = table ? headerRow(table) : null;
  if (!header) return out;
  const cells = childElements(row);
  childElements(header).forEach((th, i) => {
    const field = classifyLabel(dom.text(th), aliases);
    const cell = cells[i];
    const text = cell ? dom.text(cell) : "";
    if (field && text && !out.has(field)) out.set(field, text);
  });
  return out;
}

function entryName(
  dom: PageDom,
  container: Element,
  url: string,
  links: Element[],
  owners: Element[],
): string | null {
  const heading = dom.contentElements(container).find((el) => isHeading(el) && dom.text(el) !== "");
  if (heading) return dom.text(heading);
  const containerLength = dom.text(container).length;
  const nameLike = (text: string): boolean =>
    text !== "" &&
    text.length <= 100 &&
    !GENERIC_LINK.test(text) &&
    !looksLikeHost(text) &&
    /\p{L}/u.test(text);
  for (const link of links) {
    const text = dom.text(link);
    const wrapsEntry = text.length > 0.8 * containerLength && containerLength > 60;
    if (nameLike(text) && !wrapsEntry) return text;
  }
  // Text inside a link elsewhere ("Compare", a tag chip) never names the entry.
  const own = owners.filter((el) => {
    const link = closest(el, byName("a"));
    return !link || resolveUrl(link.attribs.href, url)?.href.split("#")[0] === url;
  });
  const bold = own.find((el) => /^(?:strong|b)$/.test(el.name) && nameLike(dom.text(el)));
  const first = bold ?? own.find((el) => nameLike(dom.text(el)));
  return first ? dom.text(first) : null;
}

function externalHost(dom: PageDom, container: Element, detailUrl: string): string | null {
  const here = new URL(detailUrl);
  for (const el of dom.contentElements(container)) {
    if (el.name !== "a") continue;
    const url = resolveUrl(el.attribs.href, detailUrl);
    if (url && !sameSite(url, here) && !isSocialHost(url.host)) return url.host;
  }
  return null;
}

/** The entry's summary: a paragraph if there is one, else its longest line of prose (see isSummaryText). */
function entrySummary(
  dom: PageDom,
  owners: Element[],
  known: (string | null)[],
  aliases: LabelAliases,
): string | null {
  const texts = owners
    .map((el) => ({ el, text: dom.text(el) }))
    .filter(
      ({ text }) =>
        !known.includes(text) &&
        (text.split(" ").length >= 3 || isSummaryText(text)) &&
        !classifyLabel(text, aliases),
    );
  const paragraph = texts.find(({ el }) => el.name === "p");
  if (paragraph) return paragraph.text;
  const longest = texts.sort((a, b) => b.text.length - a.text.length)[0];
  return longest?.text ?? null;
}
