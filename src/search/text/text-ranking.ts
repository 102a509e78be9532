/**
 * `ts_rank(document, query, 32)` as Postgres computes it (tsrank.c: calc_rank_or / calc_rank_and,
 * default weights, rank / (rank + 1)), bit for bit: what the parity test checks
 * (test/integration/search/text/text-index-parity.test.ts). Positions are encoded
 * (position << 2) | weight code (3 = A … 0 = D).
 */

/** Where each term's encoded positions are: positions[termStarts[k]..termEnds[k]). */
export interface TermPositions {
  termStarts: Int32Array;
  termEnds: Int32Array;
  positions: Uint16Array;
}

/** What ranking needs of a query, prepared once per search rather than once per document. */
export interface RankedQuery {
  /** Lexeme ids of each distinct query word, as ts_rank counts them (negated ones included). */
  rankTerms: number[][];
  allOfAnd: boolean;
  /**
   * The document being ranked: slots[slotStarts[t] + j] is the term slot of lexeme j of word t in
   * it, or -1 when the document lacks that lexeme.
   */
  slots: Int32Array;
  slotStarts: Int32Array;
  /** Scratch space for rankAnd (the words seen so far) and rankPlainAnd (every word): position ranges. */
  seenStarts: Int32Array;
  seenEnds: Int32Array;
}

/** ts_rank's default weights by weight code: D 0.1, C 0.2, B 0.4, A 1.0. */
const WEIGHTS = [0.1, 0.2, 0.4, 1.0] as const;
const weightOf = (encoded: number): number => WEIGHTS[encoded & 3] ?? 0.1;
/** π²/6, the limit of Σ 1/i², as tsrank.c writes it. */
const SUM_INVERSE_SQUARES = 1.64493406685;

function wordDistance(distance: number): number {
  if (distance > 100) return 1e-30;
  return 1.0 / (1.005 + 0.05 * Math.exp(distance / 1.5 - 2));
}

const MAX_DISTANCE = 100;
/**
 * What a pair of occurrences adds in calc_rank_and, sqrt(weight × weight × wordDistance), for
 * every pair of weight codes and distance 0…100, computed once (rankAnd needs it per pair) with
 * the very expression it replaces, so ranks stay bit for bit what they were.
 */
const PAIR_WEIGHTS = Float64Array.from({ length: 16 * (MAX_DISTANCE + 1) }, (_, i) => {
  const codes = Math.floor(i / (MAX_DISTANCE + 1));
  return Math.sqrt(weightOf(codes >> 2) * weightOf(codes & 3) * wordDistance(i % (MAX_DISTANCE + 1)));
});

/** The pair weight of two encoded positions (position << 2 | weight code). */
function pairWeight(a: number, b: number): number {
  const distance = Math.abs((a >> 2) - (b >> 2));
  if (distance > MAX_DISTANCE) return Math.sqrt(weightOf(a) * weightOf(b) * wordDistance(distance));
  return PAIR_WEIGHTS[(((a & 3) << 2) | (b & 3)) * (MAX_DISTANCE + 1) + distance] ?? 0;
}

/**
 * calc_rank_and's step for one word's positions [start, end) against an earlier word's
 * [seenStart, seenEnd): every pair at a distance adds its weight to the rank (-1: none yet).
 */
function addPairs(
  rank: number,
  positions: Uint16Array,
  start: number,
  end: number,
  seenStart: number,
  seenEnd: number,
): number {
  let result = rank;
  for (let p = start; p < end; p += 1) {
    const a = positions[p] as number;
    for (let q = seenStart; q < seenEnd; q += 1) {
      const b = positions[q] as number;
      if (a >> 2 === b >> 2) continue; // distance 0
      const weight = pairWeight(a, b);
      result = result < 0 ? weight : 1.0 - (1.0 - result) * (1.0 - weight);
    }
  }
  return result;
}

/** ts_rank's last steps: no rank is negative, normalised to rank / (rank + 1) (flag 32). */
function finalRank(raw: number): number {
  const rank = raw < 0 ? 1e-20 : raw;
  // float4, as ts_rank returns it: ranks Postgres saw as equal stay equal (ties go by id).
  return Math.fround(rank / (rank + 1));
}

/** calc_rank_or's share of one word with positions [start, end): its occurrences, the heaviest counted fully. */
function orWordRank(positions: Uint16Array, start: number, end: number): number {
  let sum = 0;
  let heaviest = -1;
  let heaviestIndex = 0;
  for (let p = start; p < end; p += 1) {
    const weight = weightOf(positions[p] ?? 0);
    const j = p - start + 1;
    sum += weight / (j * j);
    if (weight > heaviest) {
      heaviest = weight;
      heaviestIndex = j;
    }
  }
  return (heaviest + sum - heaviest / (heaviestIndex * heaviestIndex)) / SUM_INVERSE_SQUARES;
}

/** ts_rank of a query of one word whose positions in the document are [start, end). */
export function rankWord(positions: Uint16Array, start: number, end: number): number {
  return finalRank(orWordRank(positions, start, end));
}

/**
 * ts_rank for a plain conjunction of two or more words (calc_rank_and with one lexeme per word,
 * word t's positions at [starts[t], ends[t])): the same pairs in the same order, without
 * rankAnd's bookkeeping for words absent from the document.
 */
export function rankPlainAnd(positions: Uint16Array, starts: Int32Array, ends: Int32Array): number {
  let rank = -1;
  for (let t = 1; t < starts.length; t += 1) {
    const start = starts[t] as number;
    const end = ends[t] as number;
    for (let w = 0; w < t; w += 1) {
      rank = addPairs(rank, positions, start, end, starts[w] as number, ends[w] as number);
    }
  }
  return finalRank(rank);
}

/** ts_rank(document, query, 32) of the document whose slots are in query.slots. */
export function rankDocument(document: TermPositions, query: RankedQuery): number {
  return finalRank(query.allOfAnd ? rankAnd(document, query) : rankOr(document, query));
}

/** calc_rank_or: each word's occurrences, the heaviest counted fully, divided by the number of words. */
function rankOr({ termStarts, termEnds, positions }: TermPositions, query: RankedQuery): number {
  let rank = 0;
  for (const k of query.slots) {
    if (k >= 0) rank += orWordRank(positions, termStarts[k] ?? 0, termEnds[k] ?? 0);
  }
  const words = query.rankTerms.length;
  return words > 0 ? rank / words : rank;
}

/** calc_rank_and: every pair of occurrences of two different words, closer pairs weighing more. */
function rankAnd({ termStarts, termEnds, positions }: TermPositions, query: RankedQuery): number {
  const { slots, slotStarts, seenStarts, seenEnds } = query;
  let seen = 0;
  let rank = -1;
  for (let t = 0; t < query.rankTerms.length; t += 1) {
    let lastStart = -1;
    let lastEnd = -1;
    for (let j = slotStarts[t] ?? 0; j < (slotStarts[t + 1] ?? 0); j += 1) {
      const k = slots[j] ?? -1;
      if (k < 0) continue;
      const start = termStarts[k] ?? 0;
      const end = termEnds[k] ?? 0;
      for (let w = 0; w < seen; w += 1) {
        rank = addPairs(rank, positions, start, end, seenStarts[w] ?? 0, seenEnds[w] ?? 0);
      }
      lastStart = start;
      lastEnd = end;
    }
    if (lastStart >= 0) {
      seenStarts[seen] = lastStart;
      seenEnds[seen] = lastEnd;
      seen += 1;
    }
  }
  return rank;
}
