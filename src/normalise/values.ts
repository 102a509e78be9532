/**
 * The value parsers of the normalise layer in one import. Each is pure: raw visible text in,
 * `Parsed<T>` (or a plain value for the text helpers) out, no I/O and no clock.
 */
export { type ParseDateOptions, parseDate } from "./dates";
export { parseCount, parseDurationMs, parsePercent, parseUsdcAmount } from "./numbers";
export {
  absoluteUrl,
  collapseWhitespace,
  HTTP_METHODS,
  type HttpMethod,
  isMissing,
  normaliseCategory,
  normaliseMethod,
  normaliseTags,
  parseDomain,
} from "./text";
export type { FieldProblem, Parsed } from "./types";
