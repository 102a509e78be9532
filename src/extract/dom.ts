import type { AnyNode, CheerioAPI, Element } from "cheerio";

/**
 * DOM helpers shared by the extractors: visible text the way a reader sees it, site chrome
 * detection and document order. Everything is memoised per page in a `PageDom`, because the
 * heuristics ask the same questions (text of an element, is it in the footer) many times.
 */

export type TextNode = Extract<AnyNode, { nodeType: 3 }>;

export function isElement(node: AnyNode | null | undefined): node is Element {
  return node != null && "attribs" in node;
}

export function isTextNode(node: AnyNode | null | undefined): node is TextNode {
  return node != null && "data" in node && node.nodeType === 3;
}

/** Line-break marker (`<br>`) and block-boundary marker: both count as whitespace when collapsing. */
export const BR = "\u2028";
const BLOCK = "\u2029";

/** Elements a browser lays out as blocks: their boundaries separate words even without spaces. */
const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "caption",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

/** Never visible as text. */
const INVISIBLE_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "head",
  "iframe",
  "object",
]);

export const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/** Sectioning elements: a header/footer inside one belongs to that content, not to the site. */
const SECTIONING_TAGS = new Set(["article", "section", "main", "aside"]);

export function isBlock(el: Element): boolean {
  return BLOCK_TAGS.has(el.name);
}

export function isHeading(el: Element): boolean {
  return HEADING_TAGS.has(el.name) || el.attribs.role === "heading";
}

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/** Collapses all whitespace (including no-break spaces) and drops zero-width characters. */
export function collapse(text: string): string {
  return text.replace(ZERO_WIDTH, "").replace(/\s+/g, " ").trim();
}

/**
 * A node's visible text, collapsed, and whether its raw text begins or ends with whitespace: what
 * joining it to its neighbours needs. A whitespace-only node has empty text and both flags set.
 */
interface TextPart {
  text: string;
  lead: boolean;
  trail: boolean;
}

const NOTHING: TextPart = { text: "", lead: false, trail: false };
const WHITESPACE: TextPart = { text: "", lead: true, trail: true };

function textPart(raw: string): TextPart {
  const visible = raw.replace(ZERO_WIDTH, "");
  const text = visible.replace(/\s+/g, " ").trim();
  if (text === "") return visible === "" ? NOTHING : WHITESPACE;
  return { text, lead: /^\s/.test(visible), trail: /\s$/.test(visible) };
}

/**
 * collapse(a + b + …) from the parts' collapsed texts: one space where whitespace met, none
 * elsewhere. Computing an element's text from its children's keeps the work proportional to
 * the page, where collapsing every element's raw text would redo each subtree for each ancestor.
 */
function joinParts(parts: readonly TextPart[], padded: boolean): TextPart {
  let text = "";
  let lead = padded;
  let space = padded;
  for (const part of parts) {
    if (part.text === "") {
      space ||= part.lead;
      if (text === "") lead ||= part.lead;
      continue;
    }
    if (text === "") lead ||= part.lead;
    else if (space || part.lead) text += " ";
    text += part.text;
    space = part.trail;
  }
  if (text === "") return lead || space ? WHITESPACE : NOTHING;
  return { text, lead, trail: space || padded };
}

export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined || a["aria-hidden"] === "true") return true;
  // Tooltips explain a label ("Uptime ⓘ Share of successful checks"); they are not part of it.
  if (a.type === "hidden" || a.role === "tooltip") return true;
  const style = a.style;
  return style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

export function childElements(el: AnyNode): Element[] {
  if (!("children" in el)) return [];
  return el.children.filter(isElement);
}

/** The element itself or its nearest ancestor matching `test` (a selector-free `closest`). */
export function closest(node: AnyNode, test: (el: Element) => boolean): Element | null {
  for (let cur: AnyNode | null = node; cur; cur = cur.parent) if (isElement(cur) && test(cur)) return cur;
  return null;
}

export const byName =
  (...names: string[]) =>
  (el: Element): boolean =>
    names.includes(el.name);

/** Whether `node` is `ancestor` or lies inside it. */
export function contains(ancestor: AnyNode, node: AnyNode): boolean {
  for (let cur: AnyNode | null = node; cur; cur = cur.parent) if (cur === ancestor) return true;
  return false;
}

export interface PageDom {
  $: CheerioAPI;
  body: Element;
  /** Visible text with whitespace collapsed. */
  text(node: AnyNode): string;
  /** Visible text with `BR` markers kept, for splitting into lines. */
  rawText(node: AnyNode): string;
  /** Position in document order, for "first one wins" decisions. */
  order(node: AnyNode): number;
  /** Inside site chrome (site header, navigation, footer, dialogs), which never describes a service. */
  inChrome(node: AnyNode): boolean;
  /** Hidden itself or inside something hidden. */
  invisible(node: AnyNode): boolean;
  /** All visible, non-chrome elements under `root` in document order. */
  contentElements(root?: Element): Element[];
  /** The element with this id (no selector syntax, so any id string is safe). */
  byId(id: string): Element | undefined;
}

export function createPageDom($: CheerioAPI): PageDom {
  const rawMemo = new Map<AnyNode, string>();
  const partMemo = new Map<AnyNode, TextPart>();
  const chromeMemo = new Map<AnyNode, boolean>();
  const invisibleMemo = new Map<AnyNode, boolean>();
  const orderMap = new Map<AnyNode, number>();

  const root = $.root()[0];
  const ids = new Map<string, Element>();
  let counter = 0;
  const number = (node: AnyNode): void => {
    orderMap.set(node, counter++);
    if (isElement(node) && node.attribs.id && !ids.has(node.attribs.id)) ids.set(node.attribs.id, node);
    if ("children" in node) for (const child of node.children) number(child);
  };
  if (root) number(root);

  // Documents parsed by cheerio always have a body; a fragment falls back to its first element.
  const body: Element = [$("body")[0], root ? childElements(root)[0] : undefined, $("<body></body>")[0]].find(
    isElement,
  ) as Element;

  const rawText = (node: AnyNode): string => {
    const cached = rawMemo.get(node);
    if (cached !== undefined) return cached;
    let out = "";
    if (isTextNode(node)) out = node.data;
    else if (isElement(node)) {
      if (INVISIBLE_TAGS.has(node.name) || isHidden(node)) out = "";
      else if (node.name === "br") out = BR;
      else if (node.name === "select") {
        // A select shows only its chosen option ("Page [3] of 9"), not every option.
        const options = node.children.filter(isElement).filter((c) => c.name === "option");
        const chosen = options.find((o) => o.attribs.selected !== undefined) ?? options[0];
        out = chosen ? ` ${rawText(chosen)} ` : "";
      } else {
        const inner = node.children.map(rawText).join("");
        out = isBlock(node) ? `${BLOCK}${inner}${BLOCK}` : inner;
      }
    } else if ("children" in node) out = node.children.map(rawText).join("");
    rawMemo.set(node, out);
    return out;
  };

  // collapse(rawText(node)), built from the children's parts (see joinParts).
  const part = (node: AnyNode): TextPart => {
    const cached = partMemo.get(node);
    if (cached !== undefined) return cached;
    let out = NOTHING;
    if (isTextNode(node)) out = textPart(node.data);
    else if (isElement(node)) {
      if (INVISIBLE_TAGS.has(node.name) || isHidden(node)) out = NOTHING;
      else if (node.name === "br") out = WHITESPACE;
      else if (node.name === "select") {
        const options = node.children.filter(isElement).filter((c) => c.name === "option");
        const chosen = options.find((o) => o.attribs.selected !== undefined) ?? options[0];
        out = chosen ? joinParts([part(chosen)], true) : NOTHING;
      } else out = joinParts(node.children.map(part), isBlock(node));
    } else if ("children" in node) out = joinParts(node.children.map(part), false);
    partMemo.set(node, out);
    return out;
  };

  const text = (node: AnyNode): string => part(node).text;

  const isChromeElement = (el: Element): boolean => {
    const role = el.attribs.role;
    if (role === "banner" || role === "contentinfo" || role === "dialog" || role === "alertdialog")
      return true;
    if (el.name === "dialog") return true;
    if (el.name === "nav" || role === "navigation") return !isBreadcrumb(el);
    if (el.name === "header" || el.name === "footer") {
      for (let p = el.parent; p; p = p.parent) if (isElement(p) && SECTIONING_TAGS.has(p.name)) return false;
      return true;
    }
    return false;
  };

  const inChrome = (node: AnyNode): boolean => {
    const cached = chromeMemo.get(node);
    if (cached !== undefined) return cached;
    const out = (isElement(node) && isChromeElement(node)) || (node.parent ? inChrome(node.parent) : false);
    chromeMemo.set(node, out);
    return out;
  };

  const invisible = (node: AnyNode): boolean => {
    const cached = invisibleMemo.get(node);
    if (cached !== undefined) return cached;
    const self = isElement(node) && (INVISIBLE_TAGS.has(node.name) || isHidden(node));
    const out = self || (node.parent ? invisible(node.parent) : false);
    invisibleMemo.set(node, out);
    return out;
  };

  const contentElements = (start: Element = body): Element[] => {
    const out: Element[] = [];
    const walk = (el: Element): void => {
      if (INVISIBLE_TAGS.has(el.name) || isHidden(el) || isChromeElement(el)) return;
      out.push(el);
      for (const child of el.children) if (isElement(child)) walk(child);
    };
    if (!inChrome(start)) walk(start);
    return out;
  };

  return {
    $,
    body,
    text,
    rawText,
    order: (node) => orderMap.get(node) ?? Number.MAX_SAFE_INTEGER,
    inChrome,
    invisible,
    contentElements,
    byId: (id) => ids.get(id),
  };
}

/** Breadcrumbs are navigation, but they carry the service's category, so they are not chrome. */
export function isBreadcrumb(el: Element): boolean {
  const label = `${el.attribs["aria-label"] ?? ""} ${el.attribs.itemtype ?? ""}`;
  return /bread\s*crumb/i.test(label);
}

/** Elements that have text directly inside them, outermost first: the "lines" a reader sees. */
export function textOwners(dom: PageDom, root: Element): Element[] {
  const out: Element[] = [];
  const walk = (el: Element): void => {
    if (INVISIBLE_TAGS.has(el.name) || isHidden(el)) return;
    const ownsText = el.children.some((c) => isTextNode(c) && collapse(c.data) !== "");
    if (ownsText) {
      if (dom.text(el)) out.push(el);
      return;
    }
    for (const child of el.children) if (isElement(child)) walk(child);
  };
  walk(root);
  return out;
}

/**
 * Text of `root` leaving out the given subtrees, used to get "what remains" of an endpoint row
 * once its method badge and URL are removed.
 */
export function textWithout(root: AnyNode, skip: ReadonlySet<AnyNode>): string {
  const walk = (node: AnyNode): string => {
    if (skip.has(node)) return " ";
    if (!isElement(node)) return isTextNode(node) ? node.data : "";
    if (INVISIBLE_TAGS.has(node.name) || isHidden(node)) return "";
    if (node.name === "br") return " ";
    const inner = node.children.map(walk).join("");
    return isBlock(node) ? ` ${inner} ` : inner;
  };
  return collapse(walk(root));
}

/** The first row of a table when it is made of header cells (in `<thead>` or not). */
export function headerRow(table: Element): Element | null {
  for (const part of childElements(table)) {
    const row = part.name === "tr" ? part : childElements(part).find((r) => r.name === "tr");
    if (!row) continue;
    const cells = childElements(row);
    return cells.length > 1 && cells.every((c) => c.name === "th") ? row : null;
  }
  return null;
}
