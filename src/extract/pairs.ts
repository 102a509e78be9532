import type { AnyNode, Element } from "cheerio";
import { BR, childElements, collapse, isBlock, isElement, isHidden, isTextNode, type PageDom } from "./dom";
import { classifyLabel, isStatField, type LabelAliases, type LabelField } from "./labels";

/**
 * Finds "label → value" pairs however a page writes them: definition lists, table rows, cards
 * whose label and value are sibling elements (value after or before the label), accessible
 * names (`aria-label`, `title`, `<label for>`), and plain "Label: value" text. The label's
 * meaning comes from `classifyLabel`, so none of this depends on class names.
 */

export interface LabelledValue {
  field: LabelField;
  label: string;
  /** Collapsed visible text of the value. */
  value: string;
  /** The nodes holding the value, kept so list values (tags) can be split by element. */
  valueNodes: AnyNode[];
  /** The node the label was read from; its position decides which of several pairs wins. */
  labelNode: AnyNode;
  /**
   * explicit: the markup itself pairs label and value (dt/dd, th/td, "Label: value").
   * adjacent: inferred from neighbouring elements or attributes, so the value is sanity-checked.
   * weak: label and value run together without separator ("Uptime 99.9%").
   */
  strength: "explicit" | "adjacent" | "weak";
}

export interface PairOptions {
  aliases?: LabelAliases;
  /** Nodes whose pairs belong to something else (an endpoint row's "Description"). */
  exclude?: (node: AnyNode) => boolean;
}

/** How the page writes "no value". */
export const MISSING_VALUE =
  /^(?:[-–—−‐·.…?]+|n\/?a|none|null|unknown|not available|no data|never|tbd|pending)$/i;

/** Elements that are controls or links, never the label of a field. */
const NOT_LABELS = new Set(["a", "button", "option", "select", "input", "textarea", "html", "body", "head"]);
/** Table and definition-list parts are read as whole structures, not as loose neighbours. */
const STRUCTURED = new Set(["dt", "dd", "th", "td", "tr", "thead", "tbody", "tfoot", "table"]);

export function findPairs(dom: PageDom, scope: Element, options: PairOptions = {}): LabelledValue[] {
  const aliases = options.aliases ?? {};
  const excluded = options.exclude ?? (() => false);
  const classify = (text: string): LabelField | null => classifyLabel(text, aliases);
  const elements = dom.contentElements(scope).filter((el) => !excluded(el));
  const out: LabelledValue[] = [];

  const push = (
    field: LabelField,
    labelNode: AnyNode,
    label: string,
    valueNodes: AnyNode[],
    strength: LabelledValue["strength"],
    valueText?: string,
  ): void => {
    const shown = collapse(valueText ?? valueNodes.map((n) => dom.text(n)).join(" "));
    const value = isStatField(field) ? withoutEcho(field, shown, classify) : shown;
    if (!acceptValue(field, value, strength, classify)) return;
    out.push({ field, label, value, valueNodes, labelNode, strength });
  };

  for (const el of elements) {
    if (el.name === "dl") definitionList(dom, el, classify, push);
    else if (el.name === "table") tableRows(dom, el, classify, push);
  }
  adjacentElements(dom, elements, classify, push);
  accessibleNames(dom, elements, classify, push);
  textLines(dom, elements, classify, push);
  return out;
}

type Classify = (text: string) => LabelField | null;
type Push = (
  field: LabelField,
  labelNode: AnyNode,
  label: string,
  valueNodes: AnyNode[],
  strength: LabelledValue["strength"],
  valueText?: string,
) => void;

/** `<dl>`: each `dt` labels the `dd`s after it (also when wrapped in `<div>`s, as HTML allows). */
function definitionList(dom: PageDom, dl: Element, classify: Classify, push: Push): void {
  const items = childElements(dl).flatMap((c) => (c.name === "div" ? childElements(c) : [c]));
  let label: Element | null = null;
  let values: Element[] = [];
  const flush = (): void => {
    if (!label) return;
    const text = labelText(dom, label, classify);
    const field = text ? classify(text) : null;
    if (text && field && values.length > 0) push(field, label, text, values, "explicit");
  };
  for (const item of items) {
    if (item.name === "dt") {
      flush();
      label = item;
      values = [];
    } else if (item.name === "dd" && label) values.push(item);
  }
  flush();
}

/**
 * The label in a `dt`/`th`: its whole text, or else its own text without child elements, which
 * drops an inline tooltip or help text ("Uptime <small>share of successful checks</small>").
 */
function labelText(dom: PageDom, cell: Element, classify: Classify): string | null {
  const whole = dom.text(cell);
  if (classify(whole)) return whole;
  const own = collapse(cell.children.map((c) => (isTextNode(c) ? c.data : " ")).join(""));
  if (own && classify(own)) return own;
  const first = childElements(cell).find((c) => dom.text(c) !== "");
  return first && classify(dom.text(first)) ? dom.text(first) : null;
}

function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of childElements(table)) {
    if (child.name === "tr") rows.push(child);
    else if (child.name === "thead" || child.name === "tbody" || child.name === "tfoot") {
      rows.push(...childElements(child).filter((r) => r.name === "tr"));
    }
  }
  return rows;
}

/**
 * Tables: a row "label | value" (th+td, or two tds), or a header row of labels over a single
 * row of values. A header over many rows is a data table (endpoints, listings), not pairs.
 */
function tableRows(dom: PageDom, table: Element, classify: Classify, push: Push): void {
  const rows = ownRows(table);
  const cellsOf = (row: Element): Element[] =>
    childElements(row).filter((c) => c.name === "td" || c.name === "th");
  const headerRow = rows.find((r) => {
    const cells = cellsOf(r);
    return cells.length > 1 && cells.every((c) => c.name === "th");
  });
  const bodyRows = rows.filter((r) => cellsOf(r).some((c) => c.name === "td"));
  for (const row of bodyRows) {
    const cells = cellsOf(row);
    const [first, second] = cells;
    if (!first || !second) continue;
    const rowHeaded = first.name === "th" && second.name === "td";
    const twoCells = cells.length === 2 && second.name === "td";
    if (!rowHeaded && !twoCells) continue;
    const text = labelText(dom, first, classify);
    const field = text ? classify(text) : null;
    if (text && field) push(field, first, text, [second], "explicit");
  }
  if (headerRow && bodyRows.length === 1 && bodyRows[0]) {
    const headers = cellsOf(headerRow);
    const values = cellsOf(bodyRows[0]);
    headers.forEach((header, i) => {
      const value = values[i];
      const text = labelText(dom, header, classify);
      const field = text ? classify(text) : null;
      if (text && field && value) push(field, header, text, [value], "explicit");
    });
  }
}

/**
 * Cards: an element whose whole text is a label, with the value in the neighbouring element or
 * text. The value usually follows the label; some designs put a big number above a small
 * caption, so when nothing follows we look before.
 */
function adjacentElements(dom: PageDom, elements: Element[], classify: Classify, push: Push): void {
  const skipInside = new Set<Element>();
  for (const el of elements) {
    if (el.parent && isElement(el.parent) && skipInside.has(el.parent)) {
      skipInside.add(el);
      continue;
    }
    if (NOT_LABELS.has(el.name) || STRUCTURED.has(el.name) || holdsLabelAndValue(dom, el, classify)) continue;
    const text = dom.text(el);
    if (!text || text.length > 60) continue;
    const field = classify(text);
    if (!field) continue;
    // The outermost element carrying the label text stands for the label; its descendants are the same label.
    skipInside.add(el);
    const target = el.name === "label" && el.attribs.for ? dom.byId(el.attribs.for) : undefined;
    let nodes: AnyNode[] = target ? [target] : neighbours(dom, el, "next", classify);
    if (nodes.length === 0) nodes = neighbours(dom, el, "prev", classify);
    if (nodes.length > 0) push(field, el, text, nodes, "adjacent");
  }
}

/**
 * A card holding label and value as separate parts ("Avg. response" over "—") can read like a
 * label as a whole, because "—" has no words. When its parts are blocks, or one part alone is a
 * label, it is a container and its children are examined instead.
 */
function holdsLabelAndValue(dom: PageDom, el: Element, classify: Classify): boolean {
  let parts = 0;
  let container = false;
  for (const child of el.children) {
    if (isTextNode(child)) {
      if (collapse(child.data) !== "") parts++;
    } else if (isElement(child) && dom.text(child) !== "") {
      parts++;
      container ||= isBlock(child) || classify(dom.text(child)) !== null;
    }
  }
  return parts > 1 && container;
}

/** The nodes next to `el` that make up its value: one block, or a run of inline nodes. */
function neighbours(dom: PageDom, el: Element, dir: "next" | "prev", classify: Classify): AnyNode[] {
  const nodes: AnyNode[] = [];
  for (let sib = el[dir]; sib; sib = sib[dir]) {
    if (isTextNode(sib)) {
      if (collapse(sib.data) !== "") nodes.push(sib);
      continue;
    }
    if (!isElement(sib) || isHidden(sib)) continue;
    if (sib.name === "br") {
      if (nodes.length > 0) break;
      continue;
    }
    const text = dom.text(sib);
    if (!text) continue;
    if (classify(text)) break;
    if (isBlock(sib)) {
      if (nodes.length === 0) nodes.push(sib);
      break;
    }
    nodes.push(sib);
  }
  return dir === "prev" ? nodes.reverse() : nodes;
}

/** `aria-label`, `aria-labelledby`, `title`, `data-label` naming the element whose text is the value. */
function accessibleNames(dom: PageDom, elements: Element[], classify: Classify, push: Push): void {
  for (const el of elements) {
    const a = el.attribs;
    const labelledBy = a["aria-labelledby"]
      ? dom.byId(a["aria-labelledby"].split(/\s+/)[0] ?? "")
      : undefined;
    const label = labelledBy ? dom.text(labelledBy) : (a["aria-label"] ?? a["data-label"] ?? a.title);
    if (!label) continue;
    const field = classify(label);
    const value = dom.text(el);
    if (!field || !value || classify(value)) continue;
    push(field, el, collapse(label), [el], "adjacent");
  }
}

/**
 * "Label: value" written as text, possibly several on one line ("Uptime: 99% Latency: 120ms"):
 * every colon whose preceding words classify as a label starts a new pair. Lines without a
 * colon may still read "Uptime 99.9%" or "99.9% uptime"; those give weak stat pairs.
 */
function textLines(dom: PageDom, elements: Element[], classify: Classify, push: Push): void {
  // `elements` is in document order, so a parent is always seen before its children.
  const insideOwner = new Set<Element>();
  for (const owner of elements) {
    const parent = owner.parent;
    if (parent && isElement(parent) && insideOwner.has(parent)) {
      insideOwner.add(owner);
      continue;
    }
    if (!ownsText(owner)) continue;
    insideOwner.add(owner);
    if (NOT_LABELS.has(owner.name)) continue;
    const lines = dom.rawText(owner).split(BR).map(collapse).filter(Boolean);
    for (const line of lines) {
      const pairs = colonPairs(line, classify);
      // The owner also holds the label, so the value is text only (no value nodes).
      for (const p of pairs) push(p.field, owner, p.label, [], "explicit", p.value);
      if (pairs.length === 0) {
        const weak = runTogetherPair(line, classify);
        if (weak) push(weak.field, owner, weak.label, [], "weak", weak.value);
      }
    }
  }
}

function ownsText(el: Element): boolean {
  return el.children.some((c) => isTextNode(c) && collapse(c.data) !== "");
}

interface TextPair {
  field: LabelField;
  label: string;
  value: string;
}

const MAX_LABEL_WORDS = 6;

/** Characters that separate "Label: value" pairs sharing a line. */
const SEPARATORS = /[·•|;,—–]/g;

function colonPairs(line: string, classify: Classify): TextPair[] {
  const found: { field: LabelField; label: string; start: number; valueStart: number }[] = [];
  let segmentStart = 0;
  for (const m of line.matchAll(/[:：]/g)) {
    const colon = m.index;
    // The label starts after the last separator before its colon ("41 ms · Payers:").
    const lastSeparator = Math.max(
      -1,
      ...[...line.slice(segmentStart, colon).matchAll(SEPARATORS)].map((s) => s.index),
    );
    const from = segmentStart + lastSeparator + 1;
    const before = line.slice(from, colon);
    const label = longestLabelSuffix(before, classify);
    if (!label) continue;
    const start = from + before.trimEnd().length - label.label.length;
    found.push({ ...label, start, valueStart: colon + 1 });
    segmentStart = colon + 1;
  }
  return found.map((f, i) => {
    const end = found[i + 1]?.start ?? line.length;
    return { field: f.field, label: f.label, value: trimSeparators(line.slice(f.valueStart, end)) };
  });
}

/** "99.99% ·" → "99.99%", but a value that is only "—" stays. */
function trimSeparators(text: string): string {
  const value = collapse(text);
  const trimmed = value.replace(/(?:\s*[·•|;,—–])+$/, "").trim();
  return trimmed === "" ? value : trimmed;
}

/** The longest run of trailing words (up to a few) of `text` that reads as a label. */
function longestLabelSuffix(text: string, classify: Classify): { field: LabelField; label: string } | null {
  const words = text.trimEnd().split(" ");
  for (let n = Math.min(MAX_LABEL_WORDS, words.length); n >= 1; n--) {
    const label = words
      .slice(words.length - n)
      .join(" ")
      .trim();
    const field = label ? classify(label) : null;
    if (field) return { field, label };
  }
  return null;
}

/**
 * What qualifies a label rather than giving its value: "(p95)" in "Latency (p95)", "(7d)" in
 * "Uptime (7d)", "p99" in "p99 latency". Bracketed text and percentile names are never a figure.
 */
const QUALIFIER = /^(?:\(.*\)|\[.*\]|p\d{1,3})$/i;

const VALUE_LIKE = (text: string): boolean =>
  text.split(" ").length <= 4 && !QUALIFIER.test(text) && (/\d/.test(text) || MISSING_VALUE.test(text));

/** "Uptime 99.9%" or "99.9% uptime": only for statistics, whose values are recognisable. */
function runTogetherPair(line: string, classify: Classify): TextPair | null {
  const words = line.split(" ");
  if (words.length < 2 || words.length > 10 || classify(line)) return null;
  for (let n = Math.min(MAX_LABEL_WORDS, words.length - 1); n >= 1; n--) {
    const label = words.slice(0, n).join(" ");
    const value = words.slice(n).join(" ");
    const field = classify(label);
    if (field && isStatField(field) && VALUE_LIKE(value)) return { field, label, value };
  }
  for (let n = Math.min(MAX_LABEL_WORDS, words.length - 1); n >= 1; n--) {
    const label = words.slice(words.length - n).join(" ");
    const value = words.slice(0, words.length - n).join(" ");
    const field = classify(label);
    if (field && isStatField(field) && VALUE_LIKE(value)) return { field, label, value };
  }
  return null;
}

/**
 * A stat value that repeats its own label ("Uptime" over "99.95% uptime", "Latency" over
 * "latency 120 ms") is the figure without those words; a design choice, not part of the value.
 */
function withoutEcho(field: LabelField, value: string, classify: Classify): string {
  const split = runTogetherPair(value, classify);
  return split && split.field === field ? split.value : value;
}

const HOST_OR_URL = /^(?:https?:\/\/)?(?:[\p{L}\p{N}-]+\.)+[\p{L}]{2,}(?::\d+)?(?:\/\S*)?$/iu;

/** Rejects values that cannot belong to the field, mostly to stop inferred pairs from misfiring. */
function acceptValue(
  field: LabelField,
  value: string,
  strength: LabelledValue["strength"],
  classify: Classify,
): boolean {
  if (!value || classify(value)) return false;
  const checked = strength !== "explicit";
  if (isStatField(field)) {
    if (value.length > 60) return false;
    // Neighbouring text is only a statistic if it looks like one: a number, a date, or "—".
    return !checked || /\d/.test(value) || MISSING_VALUE.test(value);
  }
  switch (field) {
    case "name":
      return value.length <= 120;
    case "domain":
      return checked ? HOST_OR_URL.test(value) : value.length <= 200;
    case "category":
      return value.length <= 60 && (!checked || value.split(" ").length <= 4);
    default:
      return true;
  }
}
