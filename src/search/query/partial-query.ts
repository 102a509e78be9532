import type { TsQuery } from "./tsquery";

/**
 * What a search answer says about how its `q` was read, so an agent sees when the words it sent
 * were not all used: which were corrected to which known words, which were dropped (nothing in
 * the catalogue has them, even corrected), and whether each result matches only some of the rest.
 */
export interface QueryReading {
  corrected: Array<{ word: string; to: string[] }>;
  dropped: string[];
  /** true: no entry has every remaining word; each result has as many of them as any entry has. */
  partial: boolean;
}

/** The reading of a q whose words matched as typed. */
export const AS_TYPED: QueryReading = Object.freeze({ corrected: [], dropped: [], partial: false });

/** One word of q in the fallback: its stemmed alternatives (itself, or its corrections). */
export interface WordClause {
  word: string;
  /** Set when the word was unknown and replaced by these known words. */
  correctedTo: string[] | null;
  query: TsQuery;
}

/**
 * Beyond this many words, subsets are not enumerated (2^n): the best single words are kept.
 * Agents' queries are a few words; this only bounds the work a pasted paragraph can cause.
 */
const MAX_SUBSET_WORDS = 8;

const and = (parts: TsQuery[]): TsQuery => parts.reduce((left, right) => ({ kind: "and", left, right }));
const or = (parts: TsQuery[]): TsQuery => parts.reduce((left, right) => ({ kind: "or", left, right }));

/** Every subset of `size` of items 0..n-1, in lexicographic order. */
function* subsets(n: number, size: number): Generator<number[]> {
  const pick = Array.from({ length: size }, (_, i) => i);
  while (true) {
    yield [...pick];
    let i = size - 1;
    while (i >= 0 && pick[i] === n - size + i) i -= 1;
    if (i < 0) return;
    pick[i] = (pick[i] ?? 0) + 1;
    for (let j = i + 1; j < size; j += 1) pick[j] = (pick[j - 1] ?? 0) + 1;
  }
}

/**
 * The best query the words allow when not all of them match together: every word that matches
 * nothing on its own is dropped; then the largest number m of the remaining words that some
 * document has together is found, and the query is the OR of every m-word combination that
 * matches. Each result then has m words (no document has more), so "most words matched first"
 * holds whatever the sort, and ranking orders results within it. Null when no word matches.
 */
export function bestPartialQuery(
  clauses: readonly WordClause[],
  matchesAny: (query: TsQuery) => boolean,
): { query: TsQuery | null; reading: QueryReading } {
  const live = clauses.filter((clause) => matchesAny(clause.query));
  const reading = (used: readonly WordClause[], partial: boolean): QueryReading => ({
    corrected: used.flatMap((c) => (c.correctedTo ? [{ word: c.word, to: c.correctedTo }] : [])),
    dropped: clauses.filter((c) => !used.includes(c)).map((c) => c.word),
    partial,
  });
  if (live.length === 0) return { query: null, reading: reading([], false) };
  const all = and(live.map((c) => c.query));
  if (live.length === 1 || matchesAny(all)) return { query: all, reading: reading(live, false) };
  const largest = live.length > MAX_SUBSET_WORDS ? 1 : live.length - 1;
  for (let size = largest; size >= 1; size -= 1) {
    const matching = [...subsets(live.length, size)]
      .map((picked) => picked.map((i) => live[i] as WordClause))
      .filter((picked) => matchesAny(and(picked.map((c) => c.query))));
    if (matching.length === 0) continue;
    const used = live.filter((c) => matching.some((picked) => picked.includes(c)));
    const query = or(matching.map((picked) => and(picked.map((c) => c.query))));
    return { query, reading: reading(used, matching.length > 1) };
  }
  return { query: null, reading: reading([], false) };
}
