import type { AnyNode } from "cheerio";
import type { LabelField } from "./labels";

/** What the pair finders (pairs.ts, text-pairs.ts) find and share. */

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

/** How the page writes "no value". */
export const MISSING_VALUE =
  /^(?:[-–—−‐·.…?]+|n\/?a|none|null|unknown|not available|no data|never|tbd|pending)$/i;

/** Elements that are controls or links, never the label of a field. */
export const NOT_LABELS = new Set([
  "a",
  "button",
  "option",
  "select",
  "input",
  "textarea",
  "html",
  "body",
  "head",
]);

export type Classify = (text: string) => LabelField | null;
export type Push = (
  field: LabelField,
  labelNode: AnyNode,
  label: string,
  valueNodes: AnyNode[],
  strength: LabelledValue["strength"],
  valueText?: string,
) => void;
