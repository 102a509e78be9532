/** Result of parsing one visible value. A value that is shown as missing is not an error. */
export type Parsed<T> =
  | { kind: "value"; value: T }
  | { kind: "missing" }
  | { kind: "invalid"; raw: string; reason: string };

/**
 * A value on a page that could not be parsed. It maps one-to-one onto a `crawl_errors` row of kind
 * "value" (field, url = page, raw_text = text, message = reason), so a bad page can be found again.
 */
export interface FieldProblem {
  /** Which value, e.g. "stats.uptime30d" or "endpoints[2].method". */
  field: string;
  /** URL of the page the text was read from. */
  page: string;
  /** The visible text exactly as the extractor gave it. */
  text: string;
  reason: string;
}
