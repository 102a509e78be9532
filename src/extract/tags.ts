import type { AnyNode, Element } from "cheerio";
import { childElements, collapse, isElement, type PageDom } from "./dom";
import type { LabelledValue } from "./pairs";
import { isTagUrl } from "./urls";

/**
 * Tags as the page shows them: one string per link or chip, or the parts of a comma list.
 * Text is kept as displayed ("#Email", "email"); deduplicating and lower-casing is normalising.
 */

/** Tags from a labelled value ("Tags: a, b" or a "Tags" heading over chips). */
export function tagsFromValue(dom: PageDom, pair: LabelledValue): string[] {
  const elements = pair.valueNodes.filter(isElement).filter((el) => dom.text(el) !== "");
  // Chips placed right after the label (`<b>Tags</b><span>a</span><span>b</span>`, `<dd>a</dd><dd>b</dd>`)
  // are the value's own elements: each is one tag, whatever its markup, spaces or none between.
  const separate = elements.length >= 2 && !hasLooseText(pair.valueNodes);
  const chips = elements.flatMap((el) => {
    const inner = chipsIn(dom, el);
    return inner.length > 0 || !separate ? inner : [dom.text(el)];
  });
  if (chips.length > 0) return chips;
  return splitList(pair.value);
}

/** Text between elements that is more than separators: the elements are then parts of one sentence. */
function hasLooseText(nodes: readonly AnyNode[]): boolean {
  return nodes.some((c) => !isElement(c) && "data" in c && /[^\s,;|·•]/.test(c.data));
}

/** Tags from links to tag pages (`/tags/x`, `?tag=x`) when no label introduces them. */
export function tagsFromLinks(
  dom: PageDom,
  scope: Element,
  pageUrl: string,
  skip: (n: AnyNode) => boolean,
): string[] {
  return dom
    .contentElements(scope)
    .filter((el) => el.name === "a" && !skip(el) && isTagUrl(el.attribs.href ?? "", pageUrl))
    .map((el) => dom.text(el))
    .filter((t) => t !== "");
}

/**
 * Separate items inside a value element: links, list items, or sibling chips. A single child
 * holding everything (a `<span>` around a comma list) is not a chip list.
 */
function chipsIn(dom: PageDom, el: Element): string[] {
  const links = dom.contentElements(el).filter((c) => c.name === "a" && dom.text(c) !== "");
  if (links.length > 0) return links.map((c) => dom.text(c));
  const items = dom.contentElements(el).filter((c) => c.name === "li" && dom.text(c) !== "");
  if (items.length > 0) return items.map((c) => dom.text(c));
  let level = el;
  // Descend through single wrappers to reach the row of chips.
  for (let kids = childElements(level); kids.length === 1 && kids[0]; kids = childElements(level))
    level = kids[0];
  const kids = childElements(level).filter((c) => dom.text(c) !== "");
  if (kids.length >= 2 && !hasLooseText(level.children)) return kids.map((c) => dom.text(c));
  return [];
}

/** "a, B, #c" or "#a #b #c". */
export function splitList(text: string): string[] {
  const parts = text
    .split(/[,;|·•]/)
    .map(collapse)
    .filter(Boolean);
  if (parts.length === 1 && parts[0]) {
    const words = parts[0].split(" ");
    if (words.length > 1 && words.every((w) => w.startsWith("#"))) return words;
  }
  return parts;
}
