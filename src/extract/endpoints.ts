import type { AnyNode, Element } from "cheerio";
import {
  byName,
  childElements,
  closest,
  collapse,
  contains,
  headerRow,
  isElement,
  type PageDom,
  textWithout,
} from "./dom";
import type { LabelAliases } from "./labels";
import { findSections } from "./sections";
import type { RawEndpoint } from "./types";
import { isSocialHost } from "./urls";

/**
 * Endpoints are found by structure, not by styling: an endpoint is the smallest repeated
 * container (table row, list item, card) holding exactly one HTTP method badge and a URL.
 * Rows written as plain text ("GET /path — what it does") are read with a pattern, and inside a
 * section titled "Endpoints" a URL alone is enough (some directories omit the method).
 */

export interface EndpointScan {
  endpoints: RawEndpoint[];
  /** Whether a node belongs to the endpoint listing; service-level fields are not read there. */
  isInside(node: AnyNode): boolean;
}

const METHOD = /^(?:get|post|put|patch|delete|head|options)$/i;
const METHOD_WORD = /^(get|post|put|patch|delete|head|options)\s+/i;
const METHOD_AND_URL = /\b(?:get|post|put|patch|delete|head|options)\s+(?:https?:\/\/|\/)/gi;
const TEXT_ENDPOINT = /^(get|post|put|patch|delete|head|options)\s+(\S+)\s*(.*)$/i;
const URLISH = /^(?:https?:\/\/\S+|\/[^\s/]\S*|(?:[\w-]+\.)+[a-z]{2,}\/\S*)$/i;
const URL_IN_TEXT = /(?:https?:\/\/\S+|(?:^|\s)\/[^\s/]\S*)/i;
const CODE_TAGS = new Set(["code", "kbd", "samp", "tt", "pre"]);
/** An endpoint never spans several of these; climbing stops below them. */
const STOP = new Set(["main", "body", "html", "table", "tbody", "thead", "tfoot", "ul", "ol", "dl", "form"]);
/** A table row or list item is a whole endpoint. */
const TERMINAL = new Set(["tr", "li", "dt"]);
const NOT_BADGES = new Set(["button", "option", "select", "input", "textarea", "label"]);
/** Labels that a card may print next to an endpoint's parts. */
const PART_LABEL = /^(?:method|verb|url|uri|path|endpoint|route|description|purpose|summary)\s*:?$/i;
const MAX_ITEM_TEXT = 600;
/**
 * A price shown beside an endpoint ("$0.001 / request", "0.01 USDC per call", "Price: 0.01"):
 * what calling it costs, not what it does, so it is kept out of the endpoint's description. A
 * price label, a currency or a per-call unit is required, so a bare figure is never taken for one.
 */
const AMOUNT = String.raw`(?:US\$|\$|USDC|USD)?\s*\d[\d,]*(?:\.\d+)?\s*(?:USDC|USD)?`;
const PER_CALL = String.raw`(?:\/|per)\s*(?:call|request|req|query|use|invocation|run)`;
const PRICED = String.raw`(?:(?:price|cost|fee)\s*:?\s*${AMOUNT}|(?=[^—–|·•]*(?:\$|usd|${PER_CALL}))${AMOUNT})(?:\s*${PER_CALL})?`;
const PRICE = new RegExp(`^${PRICED}$`, "i");
/** The same price closing a line of text: "Forward geocoding · $0.001 per call". */
const TRAILING_PRICE = new RegExp(String.raw`\s*[—–|·•(-]\s*${PRICED}\s*\)?$`, "i");

interface Item {
  node: Element;
  method: string | null;
  methodNode: Element | null;
  /** One line of a code block listing several endpoints. */
  line?: string;
}

export function findEndpoints(dom: PageDom, scope: Element, aliases: LabelAliases = {}): EndpointScan {
  const elements = dom.contentElements(scope);
  const sections = findSections(dom, scope, "endpoints", aliases);
  const titles = new Set<Element>(sections.map((s) => s.title));
  const items: Item[] = [];

  // 1. Method badges: elements whose whole text is an HTTP method.
  const badges = elements.filter(
    (el) =>
      !NOT_BADGES.has(el.name) &&
      METHOD.test(dom.text(el)) &&
      childElements(el).every((c) => dom.text(c) !== dom.text(el)),
  );
  const perBadge = countPerAncestor(badges);
  for (const badge of badges) {
    const node = climb(dom, badge, perBadge, titles, scope);
    items.push({ node, method: dom.text(badge), methodNode: badge });
  }

  // 2. Text rows: "GET /path — description" with no separate badge.
  const covered = (el: Element): boolean => items.some((i) => contains(i.node, el) || contains(el, i.node));
  for (const el of elements) {
    const text = dom.text(el);
    if (text.length > MAX_ITEM_TEXT || !METHOD_WORD.test(text) || countMatches(text) !== 1) continue;
    if (STOP.has(el.name) || covered(el)) continue;
    const parent = el.parent;
    const parentQualifies =
      parent &&
      isElement(parent) &&
      !STOP.has(parent.name) &&
      parent !== scope &&
      METHOD_WORD.test(dom.text(parent)) &&
      countMatches(dom.text(parent)) === 1;
    if (!parentQualifies) items.push({ node: el, method: null, methodNode: null });
  }

  // 2b. Code blocks listing one endpoint per line ("GET  https://…/a   list things").
  for (const el of elements) {
    if (el.name !== "pre" || covered(el)) continue;
    const lines = dom.rawText(el).split("\n").map(collapse);
    for (const line of lines) {
      const m = TEXT_ENDPOINT.exec(line);
      if (m?.[2] && URLISH.test(m[2])) items.push({ node: el, method: null, methodNode: null, line });
    }
  }

  // 3. Inside an "Endpoints" section, URLs alone (the directory shows no method).
  for (const section of sections) {
    if (section.parts.some((part) => items.some((i) => contains(part, i.node)))) continue;
    const holders = section.parts
      .flatMap((part) => dom.contentElements(part))
      .filter((el) => el !== section.title && isUrlHolder(dom, el) && !isSocialLink(dom.text(el)));
    const perHolder = countPerAncestor(holders);
    for (const holder of holders) {
      const node = climb(dom, holder, perHolder, titles, scope);
      if (!covered(node)) items.push({ node, method: null, methodNode: null });
    }
  }

  items.sort((a, b) => dom.order(a.node) - dom.order(b.node));
  const endpoints: RawEndpoint[] = [];
  const regions = new Set<AnyNode>(titles);
  const seen = new Set<Element>();
  for (const item of items) {
    if (seen.has(item.node) && item.line === undefined) continue;
    seen.add(item.node);
    const endpoint = readItem(dom, item);
    if (!endpoint) continue;
    endpoints.push(endpoint);
    regions.add(regionOf(item.node));
  }
  return {
    endpoints,
    isInside: (node) => {
      for (let cur: AnyNode | null = node; cur; cur = cur.parent) if (regions.has(cur)) return true;
      return false;
    },
  };
}

function countMatches(text: string): number {
  return [...text.matchAll(METHOD_AND_URL)].length;
}

function countPerAncestor(nodes: Element[]): Map<AnyNode, number> {
  const counts = new Map<AnyNode, number>();
  for (const node of nodes) {
    for (let cur: AnyNode | null = node; cur; cur = cur.parent) counts.set(cur, (counts.get(cur) ?? 0) + 1);
  }
  return counts;
}

/** The largest container around `start` that still holds only this one endpoint. */
function climb(
  dom: PageDom,
  start: Element,
  counts: Map<AnyNode, number>,
  titles: Set<Element>,
  scope: Element,
): Element {
  let cur = start;
  while (!TERMINAL.has(cur.name)) {
    const parent = cur.parent;
    if (!parent || !isElement(parent) || parent === scope || STOP.has(parent.name)) break;
    if ((counts.get(parent) ?? 0) > 1) break;
    if ([...titles].some((t) => contains(parent, t))) break;
    if (dom.text(parent).length > MAX_ITEM_TEXT) break;
    cur = parent;
  }
  return cur;
}

/** Endpoint tables and lists are excluded as a whole (header rows included). */
function regionOf(node: Element): AnyNode {
  const parent = node.parent && isElement(node.parent) ? node.parent : null;
  if (node.name === "tr") return closest(node, byName("table")) ?? node;
  if (node.name === "li" && parent && (parent.name === "ul" || parent.name === "ol")) return parent;
  if (node.name === "dt" && parent?.name === "dl") return parent;
  return node;
}

/** "github.com/acme" under a "Resources" heading is a project link, not an endpoint. */
function isSocialLink(text: string): boolean {
  const host = /^(?:https?:\/\/)?([^/\s]+)/i.exec(text)?.[1];
  return host !== undefined && isSocialHost(host);
}

function isUrlHolder(dom: PageDom, el: Element): boolean {
  const text = dom.text(el).replace(METHOD_WORD, "");
  if (!URLISH.test(text)) return false;
  // The innermost element with the URL stands for it.
  return childElements(el).every((c) => dom.text(c) !== dom.text(el));
}

function readItem(dom: PageDom, item: Item): RawEndpoint | null {
  const { node } = item;
  if (!item.methodNode) {
    const m = TEXT_ENDPOINT.exec(item.line ?? dom.text(node));
    if (m?.[1] && m[2] && URLISH.test(m[2])) {
      return { method: m[1], url: trimUrl(m[2]), description: cleanDescription(m[3] ?? "") };
    }
  }
  const found = findUrl(dom, node, item.methodNode);
  if (!found) return null;
  const skip = new Set<AnyNode>([
    ...(item.methodNode ? [item.methodNode] : []),
    ...(found.node ? [found.node] : []),
  ]);
  for (const el of dom.contentElements(node)) {
    const text = dom.text(el);
    if (PART_LABEL.test(text) || PRICE.test(text)) skip.add(el);
  }
  let description: string | null;
  if (node.name === "dt") {
    // A definition list: the term shows method and URL, its definitions describe the endpoint.
    const definitions: string[] = [];
    for (let sib = node.next; sib; sib = sib.next) {
      if (!isElement(sib)) continue;
      if (sib.name !== "dd") break;
      definitions.push(dom.text(sib));
    }
    description = cleanDescription([textWithout(node, skip), ...definitions].join(" "));
  } else if (node.name === "tr") {
    const cells = childElements(node);
    const column = descriptionColumn(dom, node);
    const chosen = column !== null && cells[column] ? [cells[column]] : cells;
    const rest = chosen.filter((c) => ![...skip].some((s) => contains(c, s)));
    description = cleanDescription(rest.map((c) => dom.text(c)).join(" "));
  } else {
    let rest = textWithout(node, skip);
    if (!found.node) rest = rest.replace(found.url, " ");
    description = cleanDescription(rest);
  }
  return { method: item.method, url: found.url, description };
}

const DESCRIPTION_HEADER = /^(?:description|purpose|summary|details|what it does)$/i;

/** When the endpoint table has a "Description" column, other columns (price, auth) stay out. */
function descriptionColumn(dom: PageDom, row: Element): number | null {
  const table = closest(row, byName("table"));
  const header = table ? headerRow(table) : null;
  if (!header) return null;
  const index = childElements(header).findIndex((c) => DESCRIPTION_HEADER.test(dom.text(c)));
  return index >= 0 ? index : null;
}

interface FoundUrl {
  url: string;
  /** The element holding it, or null when it was read out of running text. */
  node: Element | null;
}

/** The endpoint URL: code text first, then any element whose text is a URL, then a link target. */
function findUrl(dom: PageDom, item: Element, methodNode: Element | null): FoundUrl | null {
  const inside = dom.contentElements(item).filter((el) => el !== methodNode);
  const holders = inside.filter((el) => isUrlHolder(dom, el));
  const holder = holders.find((el) => CODE_TAGS.has(el.name)) ?? holders[0];
  if (holder) {
    const text = dom.text(holder).replace(METHOD_WORD, "");
    return { url: preferHref(holder, text), node: holder };
  }
  const link = inside.find((el) => el.name === "a" && usableHref(el.attribs.href));
  if (link?.attribs.href) return { url: link.attribs.href, node: link };
  const rest = methodNode ? textWithout(item, new Set([methodNode])) : dom.text(item);
  const m = URL_IN_TEXT.exec(rest.replace(METHOD_WORD, ""));
  return m ? { url: trimUrl(m[0].trim()), node: null } : null;
}

/** Punctuation that ends the sentence, not the URL ("/api/send: send an email"). */
function trimUrl(url: string): string {
  return url.replace(/[:;,.)]+$/, "");
}

/** A link showing a relative path but pointing at the full URL gives the full URL. */
function preferHref(holder: Element, text: string): string {
  const link =
    holder.name === "a" ? holder : holder.parent && isElement(holder.parent) ? holder.parent : null;
  const href = link?.name === "a" ? link.attribs.href : undefined;
  if (href && /^https?:\/\//i.test(href) && !/^https?:\/\//i.test(text) && href.endsWith(text)) return href;
  return text;
}

function usableHref(href: string | undefined): boolean {
  return !!href && !href.startsWith("#") && !/^(?:javascript|mailto|tel):/i.test(href);
}

function cleanDescription(text: string): string | null {
  const collapsed = collapse(text);
  if (PRICE.test(collapsed)) return null;
  const cleaned = collapsed
    .replace(TRAILING_PRICE, "")
    .replace(/^(?:description|purpose|summary)\s*:\s*/i, "")
    .replace(/^[\s—–\-:|·•→]+|[\s—–\-:|·•→]+$/g, "");
  return cleaned === "" ? null : cleaned;
}
