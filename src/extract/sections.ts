import type { Element } from "cheerio";
import { childElements, HEADING_TAGS, isElement, isHeading, type PageDom } from "./dom";
import { classifyLabel, type LabelAliases, type LabelField } from "./labels";

/**
 * Finds the part of a page that a title introduces ("Endpoints", "Tags"), whether the title is
 * a real heading or a styled `<div>`. A section is returned as the list of elements it spans,
 * because flat pages put a heading and its content side by side without a wrapper.
 */

export interface Section {
  title: Element;
  /** Elements making up the section's content (the title excluded when it is a sibling range). */
  parts: Element[];
}

const NOT_TITLES = new Set(["a", "button", "option", "select", "td", "th", "dt", "dd", "li", "label"]);

export function findSections(
  dom: PageDom,
  scope: Element,
  field: LabelField,
  aliases: LabelAliases = {},
): Section[] {
  const sections: Section[] = [];
  const used = new Set<Element>();
  for (const el of dom.contentElements(scope)) {
    if (el.parent && isElement(el.parent) && used.has(el.parent)) {
      used.add(el);
      continue;
    }
    if (NOT_TITLES.has(el.name)) continue;
    const text = dom.text(el);
    if (!text || text.length > 60 || classifyLabel(text, aliases) !== field) continue;
    used.add(el);
    const parts = sectionParts(dom, el);
    if (parts.length > 0) sections.push({ title: el, parts });
  }
  return sections;
}

function headingLevel(el: Element): number {
  if (HEADING_TAGS.has(el.name)) return Number(el.name.slice(1));
  const aria = Number(el.attribs["aria-level"]);
  return Number.isFinite(aria) && aria > 0 ? aria : 2;
}

function containsHeadingAtOrAbove(el: Element, level: number, except: Element): boolean {
  if (el !== except && isHeading(el) && headingLevel(el) <= level) return true;
  return childElements(el).some((c) => containsHeadingAtOrAbove(c, level, except));
}

function sectionParts(dom: PageDom, title: Element): Element[] {
  const parent = title.parent;
  if (!isHeading(title)) {
    // A styled title: its content is the block right after it.
    const next = siblingsAfter(title).find((s) => dom.text(s) !== "");
    return next ? [next] : [];
  }
  const level = headingLevel(title);
  // A wrapper that starts with the heading and holds no rival heading is the section itself.
  if (parent && isElement(parent) && childElements(parent)[0] === title) {
    if (!containsHeadingAtOrAbove(parent, level, title)) return [parent];
  }
  const parts: Element[] = [];
  for (const sib of siblingsAfter(title)) {
    if (containsHeadingAtOrAbove(sib, level, title)) break;
    parts.push(sib);
  }
  return parts;
}

function siblingsAfter(el: Element): Element[] {
  const out: Element[] = [];
  for (let s = el.next; s; s = s.next) if (isElement(s)) out.push(s);
  return out;
}
