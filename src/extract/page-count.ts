/**
 * How many pages a listing says it has, read from its own words: "Page 3 of 40", "Page 3/40",
 * "3 of 40 pages", or a result range such as "Showing 101–150 of 2,345 results". A crawl follows
 * this count to the end (the listing-page guard only bounds pages no count speaks for), so a
 * count is read only from wording that cannot mean anything else.
 */

export interface StatedPageCount {
  /** The page this one says it is, when it says so. */
  current: number | null;
  total: number;
}

/**
 * A whole number as directories print it: "40", "1,234", "1.234", "1\u00a0234". Not a plain space:
 * "Page 3 of 40 123 results" must not read as 40,123 pages.
 */
const NUMBER = String.raw`\d{1,3}(?:[,.\u00a0\u202f]\d{3})+(?!\d)|\d+`;
const PAGE_OF = new RegExp(String.raw`\bpage\s*:?\s*(${NUMBER})\s*(?:of|/|out of)\s*(${NUMBER})`, "i");
const N_OF_M_PAGES = new RegExp(String.raw`\b(${NUMBER})\s*(?:of|/)\s*(${NUMBER})\s+pages\b`, "i");
const RANGE_OF = new RegExp(
  String.raw`\b(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})\s+of\s+(?:about\s+)?(${NUMBER})\s+(?:results|services|items|entries|apis|listings|records)\b`,
  "i",
);
/**
 * "Showing 51 to 100 of 1,234": no noun after the total, but the leading word says the range is
 * the results shown. A bare "51–100 of 1,234" stays unread (a quota, a score, a rank).
 */
const SHOWN_RANGE_OF = new RegExp(
  String.raw`\b(?:showing|displaying|viewing|results)\s*:?\s*(${NUMBER})\s*(?:-|–|—|to)\s*(${NUMBER})\s+of\s+(?:about\s+)?(${NUMBER})(?!\d)`,
  "i",
);
/** Past any real directory and short of an accidental number ("page 1 of 20250101"). */
const MAX_STATED_PAGES = 1_000_000;

function parseCount(text: string): number {
  return Number(text.replace(/[^\d]/g, ""));
}

/** The page count a listing page's visible text states, or null. */
export function statedPageCount(text: string): StatedPageCount | null {
  const pageOf = PAGE_OF.exec(text) ?? N_OF_M_PAGES.exec(text);
  if (pageOf) return checked(parseCount(pageOf[1]!), parseCount(pageOf[2]!));
  const range = RANGE_OF.exec(text) ?? SHOWN_RANGE_OF.exec(text);
  return range ? fromRange(parseCount(range[1]!), parseCount(range[2]!), parseCount(range[3]!)) : null;
}

/**
 * "Showing 101–150 of 2,345": 50 a page, so page 3 of 47. The last page ("2,301–2,345 of 2,345")
 * holds fewer than a page and tells nothing about the page size; a first page shorter than the
 * whole is itself the page size.
 */
function fromRange(from: number, to: number, items: number): StatedPageCount | null {
  if (from < 1 || to < from || to > items) return null;
  if (to === items) return from === 1 ? { current: 1, total: 1 } : null;
  const size = to - from + 1;
  if ((from - 1) % size !== 0) return null;
  return checked((from - 1) / size + 1, Math.ceil(items / size));
}

function checked(current: number, total: number): StatedPageCount | null {
  return current >= 1 && total >= current && total <= MAX_STATED_PAGES ? { current, total } : null;
}
