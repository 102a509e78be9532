import type { AnyNode, Element } from "cheerio";
import { childElements, collapse, isBlock, isElement, isHidden, isTextNode, type PageDom } from "./dom";
import { classifyLabel, isStatField, type LabelAliases, type LabelField } from "./labels";
import { type Classify, type LabelledValue, MISSING_VALUE, NOT_LABELS, type Push } from "./pair-kinds";
import { runTogetherPair, textLines } from "./text-pairs";

export type { LabelledValue } from "./pair-kinds";

/**
 * Finds "label → value" pairs however a page writes them: definition lists, table rows, cards
 * whose label and value are sibling elements (value after or before the label), accessible
 * names (`aria-label`, `title`, `<label for>`), and plain "Label: value" text. The label's
 * meaning comes from `classifyLabel`, so none of this depends on class names.
 */

export interface PairOptions {
  aliases?: LabelAliases;
  /** Nodes whose pairs belong to something else (an endpoint row's "Description"). */
  exclude?: (node: AnyNode) => boolean;
}

/** Table and definition-list parts are read as whole structures, not as loose neighbours. */
const STRUCTURED = new Set(["dt", "dd", "th", "td", "tr", "thead", "tbody", "tfoot", "table"]);

export function findPairs(dom: PageDom, scope: Element, options: PairOptions = {}): LabelledValue[] {
  const aliases = options.aliases ?? {};
  const excluded = options.exclude ?? (() => false);
  const classify = (text: string): LabelField | null => classifyLabel(text, aliases);
  const elements = dom.contentElements(scope).filter((el) => !excluded(el));
  const out: LabelledValue[] = [];

  const push: Push = (field, labelNode, label, valueNodes, strength, valueText) => {
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
