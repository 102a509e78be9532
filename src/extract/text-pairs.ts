import type { Element } from "cheerio";
import { BR, collapse, isElement, isTextNode, type PageDom } from "./dom";
import { isStatField, type LabelField } from "./labels";
import { type Classify, MISSING_VALUE, NOT_LABELS, type Push } from "./pair-kinds";

/**
 * "Label: value" written as text, possibly several on one line ("Uptime: 99% Latency: 120ms"):
 * every colon whose preceding words classify as a label starts a new pair. Lines without a
 * colon may still read "Uptime 99.9%" or "99.9% uptime"; those give weak stat pairs.
 */
export function textLines(dom: PageDom, elements: Element[], classify: Classify, push: Push): void {
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
export function runTogetherPair(line: string, classify: Classify): TextPair | null {
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
