import type { AnyNode, CheerioAPI, Element } from "cheerio";
import {
  byName,
  closest,
  contains,
  createPageDom,
  isBreadcrumb,
  isElement,
  isHeading,
  type PageDom,
  textOwners,
} from "./dom";
import { findEndpoints } from "./endpoints";
import {
  classifyLabel,
  type ExtractOptions,
  type LabelAliases,
  type LabelField,
  STAT_FIELDS,
} from "./labels";
import { findPairs, type LabelledValue } from "./pairs";
import { isSummaryText, LONG_SUMMARY_WORDS } from "./summary";
import { tagsFromLinks, tagsFromValue } from "./tags";
import type { RawServiceDetail, StatField } from "./types";
import { isCategoryUrl, isSocialHost, looksLikeHost, resolveUrl, sameSite } from "./urls";

/**
 * Reads a service's detail page into raw text fields. Order of work: find the endpoint listing
 * first (its rows carry their own "Description" and must not be mistaken for the service's),
 * then every label/value pair on the page, then fall back on page structure (h1, first
 * paragraph, host-like text, tag links) for what no label names.
 */

/** Kept here too: callers imported the options type from this module first. */
export type { ExtractOptions } from "./labels";

const STRENGTH_RANK: Record<LabelledValue["strength"], number> = { explicit: 0, adjacent: 0, weak: 1 };

export function extractDetail(
  $: CheerioAPI,
  pageUrl: string,
  options: ExtractOptions = {},
): RawServiceDetail {
  const dom = createPageDom($);
  const aliases = options.aliases ?? {};
  const main = mainContent(dom);
  const scan = findEndpoints(dom, dom.body, aliases);
  const pairs = findPairs(dom, dom.body, { aliases, exclude: scan.isInside });
  const best = pickBest(dom, pairs, main);
  const value = (field: LabelField): string | null => best.get(field)?.value ?? null;
  const h1 = firstH1(dom, main);

  const stats: Partial<Record<StatField, string>> = {};
  for (const field of STAT_FIELDS) {
    const v = value(field);
    if (v !== null) stats[field] = v;
  }
  const updated = best.get("infoUpdated");
  if (updated) stats.infoUpdated = machineDate(dom, updated) ?? updated.value;
  const tagPair = best.get("tags");
  const used = usedNodes(pairs);
  const skip = (n: AnyNode): boolean => scan.isInside(n) || dom.inChrome(n);

  return {
    name: (h1 && dom.text(h1)) || value("name") || titleName(dom) || topHeading(dom, main, aliases),
    domain: value("domain") ?? domainNear(dom, main, h1, pageUrl, skip),
    description: description(
      dom,
      best.get("description"),
      firstParagraph(dom, main, h1, skip, used, aliases),
    ),
    category: value("category") ?? categoryLink(dom, pageUrl),
    endpoints: scan.endpoints,
    stats,
    tags: tagPair ? tagsFromValue(dom, tagPair) : tagsFromLinks(dom, main, pageUrl, skip),
  };
}

const RELATIVE_TIME = /\b(?:ago|yesterday|today|just now|now)\b/i;

/**
 * "3 hours ago" cannot be turned into a date without knowing when the page was rendered; when
 * the page also gives the machine-readable moment (`<time datetime>` or a `title` tooltip),
 * that is the value to keep.
 */
function machineDate(dom: PageDom, pair: LabelledValue): string | null {
  if (!RELATIVE_TIME.test(pair.value)) return null;
  for (const node of pair.valueNodes.filter(isElement)) {
    const candidates = [node, ...dom.$(node).find("time[datetime], [title]").toArray().filter(isElement)];
    for (const el of candidates) {
      const stamp = el.name === "time" ? el.attribs.datetime : el.attribs.title;
      if (stamp && /\d{4}/.test(stamp)) return stamp.trim();
    }
  }
  return null;
}

/** `<main>` when the page has one; stats in a sidebar outside it are still read, ranked after. */
function mainContent(dom: PageDom): Element {
  const mains = dom.$('main, [role="main"]').toArray().filter(isElement);
  return mains.length === 1 && mains[0] ? mains[0] : dom.body;
}

/** For each field the best pair: strong before weak, inside <main> before outside, then first on the page. */
function pickBest(dom: PageDom, pairs: LabelledValue[], main: Element): Map<LabelField, LabelledValue> {
  const rank = (p: LabelledValue): [number, number, number] => [
    STRENGTH_RANK[p.strength],
    contains(main, p.labelNode) ? 0 : 1,
    dom.order(p.labelNode),
  ];
  const best = new Map<LabelField, LabelledValue>();
  for (const pair of pairs) {
    const current = best.get(pair.field);
    if (!current || compare(rank(pair), rank(current)) < 0) best.set(pair.field, pair);
  }
  return best;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function usedNodes(pairs: LabelledValue[]): AnyNode[] {
  return pairs.flatMap((p) => [p.labelNode, ...p.valueNodes]);
}

function firstH1(dom: PageDom, main: Element): Element | null {
  const h1s = dom
    .$('h1, [role="heading"][aria-level="1"]')
    .toArray()
    .filter(isElement)
    .filter((h) => !dom.inChrome(h) && !dom.invisible(h) && dom.text(h) !== "");
  return h1s.find((h) => contains(main, h)) ?? h1s[0] ?? null;
}

/** Without h1 or title, the first h2/h3 that is not a section title ("Endpoints", "Tags"). */
function topHeading(dom: PageDom, main: Element, aliases: LabelAliases): string | null {
  const headings = dom.contentElements(main).filter((el) => /^h[23]$/.test(el.name));
  const chosen = headings.find((h) => dom.text(h) !== "" && !classifyLabel(dom.text(h), aliases));
  return chosen ? dom.text(chosen) : null;
}

/** `og:title` or `<title>` without the site's suffix ("Giftly — x402 Directory" → "Giftly"). */
function titleName(dom: PageDom): string | null {
  const meta = (sel: string): string => (dom.$(sel).attr("content") ?? "").trim();
  const siteName = meta('meta[property="og:site_name"]').toLowerCase();
  const title = meta('meta[property="og:title"]') || dom.$("title").first().text().trim();
  const parts = title
    .split(/\s+[|–—·:-]\s+|\s*[|·]\s*/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p !== "" && p.toLowerCase() !== siteName);
  return parts[0] ?? null;
}

/**
 * A "Description" field wins. A description found only next to a loose "About"/"Overview"
 * caption loses to a paragraph that comes before it: on div-only sites such a caption is as
 * likely to introduce the directory's own blurb at the bottom of the page.
 */
function description(
  dom: PageDom,
  pair: LabelledValue | undefined,
  paragraph: Element | null,
): string | null {
  if (
    pair &&
    (pair.strength === "explicit" || !paragraph || dom.order(pair.labelNode) < dom.order(paragraph))
  ) {
    return pair.value;
  }
  return paragraph ? dom.text(paragraph) : metaDescription(dom);
}

function metaDescription(dom: PageDom): string | null {
  const content =
    dom.$('meta[name="description"]').attr("content") ??
    dom.$('meta[property="og:description"]').attr("content");
  const text = content?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}

/** After the name, the first host-like text or link; else a link to another site (not social). */
function domainNear(
  dom: PageDom,
  main: Element,
  h1: Element | null,
  pageUrl: string,
  skip: (n: AnyNode) => boolean,
): string | null {
  const after = (el: Element): boolean => !h1 || dom.order(el) > dom.order(h1);
  const owners = textOwners(dom, main).filter((el) => !skip(el));
  const hostText = owners.filter(after).find((el) => looksLikeHost(dom.text(el)));
  if (hostText) return dom.text(hostText);
  const links = dom
    .contentElements(main)
    .filter((el) => el.name === "a" && !skip(el))
    .sort((a, b) => Number(!after(a)) - Number(!after(b)));
  const here = resolveUrl(pageUrl, pageUrl);
  for (const link of links) {
    if (looksLikeHost(dom.text(link))) return dom.text(link);
    const url = resolveUrl(link.attribs.href, pageUrl);
    if (url && here && !sameSite(url, here) && !isSocialHost(url.host)) return url.host;
  }
  return null;
}

/** The first real paragraph after the name: prose (see isSummaryText), not a label/value line. */
function firstParagraph(
  dom: PageDom,
  main: Element,
  h1: Element | null,
  skip: (n: AnyNode) => boolean,
  used: AnyNode[],
  aliases: LabelAliases,
): Element | null {
  const after = (el: Element): boolean => !h1 || dom.order(el) > dom.order(h1);
  const usable = (el: Element): boolean => {
    const text = dom.text(el);
    if (skip(el) || !isSummaryText(text) || classifyLabel(text, aliases)) return false;
    if (used.some((n) => contains(el, n) || contains(n, el))) return false;
    return !isHeading(el) && !closest(el, byName("form", "a", "button", "label", "pre", "code"));
  };
  // Paragraphs and bare text blocks (a styled <div>) alike, in page order after the name.
  const paragraphs = dom.contentElements(main).filter((el) => el.name === "p" && usable(el));
  const blocks = [...paragraphs, ...textOwners(dom, main).filter(usable)].sort(
    (a, b) => dom.order(a) - dom.order(b),
  );
  // Short text in a <p> is a summary; in another block two words are as likely a badge ("Open
  // Source"), so such a block is the summary only when no prose exists (a tagline under the name).
  const prose = (el: Element): boolean =>
    el.name === "p" || dom.text(el).split(" ").length >= LONG_SUMMARY_WORDS;
  return (
    blocks.find((el) => after(el) && prose(el)) ??
    blocks.find(prose) ??
    blocks.find(after) ??
    blocks[0] ??
    null
  );
}

/**
 * A category shown as a link (breadcrumb "Home › Data › Giftly", or a badge linking to
 * /categories/data). Only trusted when unambiguous: one category, or the one in a breadcrumb.
 */
function categoryLink(dom: PageDom, pageUrl: string): string | null {
  const links = dom
    .$("a[href]")
    .toArray()
    .filter(isElement)
    .filter((a) => !dom.invisible(a) && isCategoryUrl(a.attribs.href ?? "", pageUrl) && dom.text(a) !== "");
  const visible = links.filter((a) => !dom.inChrome(a));
  const texts = [...new Set(visible.map((a) => dom.text(a)))];
  if (texts.length === 1 && texts[0]) return texts[0];
  const crumb = links.find((a) => closest(a, isBreadcrumb) !== null);
  return crumb ? dom.text(crumb) : null;
}
