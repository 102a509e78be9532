import { looksLikeHost } from "./urls";

/**
 * Whether a block's text can be a service's summary. Prose of several words always can. A short
 * one ("Weather API", "Stock quotes") can too: a real description is sometimes two words, and
 * dropping it loses the only text a search has. Short text must read as words only (letters and
 * light punctuation, no digits, not a host), so figures, prices and badges such as "99.9 %" or
 * "api.example.com" never pass for a description.
 */
export function isSummaryText(text: string): boolean {
  const words = text.split(" ").length;
  if (words >= LONG_SUMMARY_WORDS) return true;
  return words >= 2 && SHORT_SUMMARY.test(text) && !looksLikeHost(text);
}

/** A summary of this many words is prose, whatever its characters. */
export const LONG_SUMMARY_WORDS = 4;

const SHORT_SUMMARY = /^[\p{L}][\p{L}\p{M}\s'’&/.,:()-]*$/u;
