import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { bitset, hasBit, lowerBound } from "./sorted-lists";
import { queryTerms, type TsQuery } from "./tsquery";
import { parseTsVector } from "./tsvector";

/**
 * Full-text matching and ranking over documents held in memory, with the semantics of Postgres's
 * `document @@ query` and `ts_rank(document, query, 32)` (tsrank.c: calc_rank_or / calc_rank_and,
 * default weights, rank / (rank + 1)), so the in-memory index ranks as the SQL did.
 */

/**
 * Every document in flat arrays (a few typed arrays in all, rather than objects per document):
 * document d has the terms termIds[docStarts[d]..docStarts[d+1]) (lexeme ids, ascending), and term
 * k has the positions positions[termStarts[k]..termEnds[k]), each (position << 2) | weight code
 * (3 = A … 0 = D), ascending by position. Positions are stored lexeme by lexeme (a posting's
 * positions together, in its document order), so a search walking postings reads them in order.
 */
interface Documents {
  docStarts: Int32Array;
  termIds: Int32Array;
  termStarts: Int32Array;
  termEnds: Int32Array;
  positions: Int32Array;
}

/**
 * Matching documents (indexes as passed to TextIndex.build) and their ranks, in parallel; ranks
 * are float4, as ts_rank returns them. Read-only: they may be the index's own arrays.
 */
export interface TextMatches {
  docs: Int32Array;
  /** Empty when the search was not ranked. */
  ranks: Float32Array;
}

/** The `accept` of a search without filters: recognised, so a one-word search copies nothing. */
export const acceptAll = (_doc: number): boolean => true;

/**
 * Matches collected into typed arrays of a capacity known in advance (the candidates): no copy
 * as they grow, and off the JS heap (a search's arrays were most of a request's garbage).
 */
class Collector {
  private readonly docs: Int32Array;
  private readonly ranks: Float32Array;
  private count = 0;

  constructor(capacity: number, ranked: boolean) {
    this.docs = new Int32Array(capacity);
    this.ranks = new Float32Array(ranked ? capacity : 0);
  }

  add(doc: number): void {
    this.docs[this.count] = doc;
    this.count += 1;
  }

  /** Adds a match with its rank. */
  addRanked(doc: number, rank: number): void {
    this.ranks[this.count] = rank;
    this.add(doc);
  }

  matches(): TextMatches {
    return {
      docs: this.docs.subarray(0, this.count),
      ranks: this.ranks.subarray(0, Math.min(this.count, this.ranks.length)),
    };
  }
}

type Term = Extract<TsQuery, { kind: "term" }>;

/** A lexeme's documents (ascending) and, in parallel, where its positions are and its rank alone. */
interface Posting {
  docs: Int32Array;
  /** The lexeme's positions in docs[i] are positions[starts[i]..starts[i + 1]). */
  starts: Int32Array;
  /** ts_rank of docs[i] for a query of this lexeme alone (the most common query), computed once. */
  ranks: Float32Array;
  /**
   * For a common lexeme (in at least 1 document in 32), its documents as a bitset too, no larger
   * than `docs`: intersecting with it is one bit test per candidate instead of a search; and
   * bitCounts[w], how many documents the words before word w hold, so a document's index in
   * `docs` is one population count away.
   */
  bits: Int32Array | null;
  bitCounts: Int32Array | null;
}

interface PreparedQuery {
  lexemeIds: Map<Term, number[]>;
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
  positions: Int32Array,
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
function orWordRank(positions: Int32Array, start: number, end: number): number {
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

/** A positions list, or ANY inside a phrase where a negation leaves positions unknown. */
type Positions = number[] | "any";

const EMPTY = new Int32Array(0);
const EMPTY_RANKS = new Float32Array(0);
const NO_POSTING: Posting = {
  docs: EMPTY,
  starts: new Int32Array(1),
  ranks: new Float32Array(0),
  bits: null,
  bitCounts: null,
};
/** A posting in at least 1 document in DENSE gets a bitset (see Posting.bits). */
const DENSE = 32;
const YIELD_EVERY = 500;

export class TextIndex {
  private constructor(
    private readonly lexicon: Map<string, number>,
    private readonly postings: Posting[],
    private readonly documents: Documents,
  ) {}

  /**
   * Documents as Postgres prints tsvectors; null for a document that was never built. Yields to
   * the event loop every few hundred documents: an API process keeps answering (from its previous
   * index) while it builds the next.
   */
  static async build(texts: ReadonlyArray<string | null>): Promise<TextIndex> {
    const lexicon = new Map<string, number>();
    const postingDocs: number[][] = [];
    const docStarts = new Int32Array(texts.length + 1);
    const termIds: number[] = [];
    /** Each term's positions as parsed, document by document (rearranged lexeme by lexeme below). */
    const parsedPositions: number[][] = [];
    for (const [doc, text] of texts.entries()) {
      if (doc % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEventLoop();
      docStarts[doc] = termIds.length;
      const entries = (text === null ? [] : parseTsVector(text)).map(({ lexeme, positions: at }) => {
        let id = lexicon.get(lexeme);
        if (id === undefined) {
          id = lexicon.size;
          lexicon.set(lexeme, id);
          postingDocs.push([]);
        }
        return { id, at };
      });
      entries.sort((a, b) => a.id - b.id);
      for (const { id, at } of entries) {
        postingDocs[id]?.push(doc);
        termIds.push(id);
        parsedPositions.push(at);
      }
    }
    docStarts[texts.length] = termIds.length;
    const documents = lexemeMajor(lexicon.size, Int32Array.from(termIds), parsedPositions, docStarts);
    const postings = postingDocs.map((docs): Posting => {
      const bits = docs.length * DENSE >= texts.length ? bitset(docs, texts.length) : null;
      return {
        docs: Int32Array.from(docs),
        starts: new Int32Array(docs.length + 1),
        ranks: new Float32Array(docs.length),
        bits,
        bitCounts: bits === null ? null : prefixCounts(bits),
      };
    });
    // Each posting's position ranges and ranks alone, filled in document order (its own order).
    const filled = new Int32Array(postings.length);
    for (let k = 0; k < termIds.length; k += 1) {
      const posting = postings[termIds[k] as number] as Posting;
      const i = filled[termIds[k] as number] as number;
      const start = documents.termStarts[k] as number;
      const end = documents.termEnds[k] as number;
      posting.starts[i] = start;
      posting.starts[i + 1] = end;
      posting.ranks[i] = finalRank(orWordRank(documents.positions, start, end));
      filled[termIds[k] as number] = i + 1;
    }
    return new TextIndex(lexicon, postings, documents);
  }

  get size(): number {
    return this.documents.docStarts.length - 1;
  }

  /**
   * The documents matching the query that `accept` lets through, in document order, with their
   * ranks (none when `ranked` is false: a search sorted by something else). `accept` runs on
   * matches only (it reads catalogue entries, scattered in memory, which costs more than
   * matching), in ascending document order, and before ranking (what it excludes is never
   * ranked). `within`: a superset of what `accept` lets through (ascending), when the caller has
   * it cheaply: walked instead of the words' documents when it is shorter (a search for a common
   * word in a small category).
   */
  search(
    query: TsQuery,
    accept: (doc: number) => boolean = acceptAll,
    ranked = true,
    within: Int32Array | null = null,
  ): TextMatches {
    const prepared = this.prepare(query);
    if (isPlainConjunction(query, prepared.lexemeIds)) {
      return this.searchConjunction(prepared, accept, ranked, within);
    }
    const wordCandidates = this.candidates(query, prepared.lexemeIds);
    const candidates =
      within !== null && (wordCandidates === null || within.length < wordCandidates.length)
        ? within
        : wordCandidates;
    const found = new Collector(candidates === null ? this.size : candidates.length, ranked);
    const visit = (doc: number) => {
      if (!this.matches(query, doc, prepared.lexemeIds) || !accept(doc)) return;
      if (!ranked) return found.add(doc);
      this.findSlots(prepared, doc);
      found.addRanked(doc, this.rank(prepared));
    };
    if (candidates === null) for (let doc = 0; doc < this.size; doc += 1) visit(doc);
    else for (const doc of candidates) visit(doc);
    return found.matches();
  }

  /**
   * The common query (words that must all occur, as websearch syntax reads "weather forecast"):
   * the matches are the intersection of the words' postings, walked from the shortest, and each
   * posting tells where its positions are in each document, so neither matching nor ranking
   * searches a document's terms. A single word's ranks are its posting's. Accepting after
   * matching: `accept` reads the catalogue entry, scattered in memory, so it runs for the few
   * matches rather than every candidate.
   */
  private searchConjunction(
    prepared: PreparedQuery,
    accept: (doc: number) => boolean,
    ranked: boolean,
    within: Int32Array | null,
  ): TextMatches {
    // A word the index has never seen matches nothing; otherwise each word is one lexeme.
    if (prepared.rankTerms.some((ids) => ids.length === 0)) return new Collector(0, false).matches();
    const words = prepared.rankTerms.length;
    // The words' postings, then the documents the caller allows (a list like a posting, no word).
    const lists = prepared.rankTerms.map(([id]) => this.postings[id ?? -1] ?? NO_POSTING);
    if (within !== null) lists.push({ ...NO_POSTING, docs: within });
    let driver = 0;
    lists.forEach((list, j) => {
      if (list.docs.length < (lists[driver] as Posting).docs.length) driver = j;
    });
    const others = [...lists.keys()].filter((j) => j !== driver);
    const lead = lists[driver] as Posting;
    if (others.length === 0) return this.searchWord(lead, accept, ranked);
    if (lists.every((list) => list.bits !== null))
      return this.searchDense(lists, lead, accept, ranked, prepared);
    const cursors = new Int32Array(lists.length); // where each other list's search stands
    const found = new Collector(lead.docs.length, ranked);
    // Word t's positions in the document being ranked: positions[starts[t]..ends[t]).
    const { seenStarts: starts, seenEnds: ends } = prepared;
    for (let i = 0; i < lead.docs.length; i += 1) {
      const doc = lead.docs[i] as number;
      let k = 0;
      for (; k < others.length; k += 1) {
        const j = others[k] as number;
        const { docs: list, bits } = lists[j] as Posting;
        if (bits !== null) {
          if (!hasBit(bits, doc)) break;
        } else {
          const at = lowerBound(list, doc, cursors[j] as number);
          cursors[j] = at;
          if (list[at] !== doc) break;
        }
      }
      if (k < others.length || !accept(doc)) continue;
      if (!ranked) {
        found.add(doc);
        continue;
      }
      // Each word's index in its posting: known for the lead, a search's cursor or a bit count.
      let at = 0;
      for (let t = 0; t < words; t += 1) {
        const posting = lists[t] as Posting;
        at = t === driver ? i : posting.bits !== null ? bitIndex(posting, doc) : (cursors[t] as number);
        starts[t] = posting.starts[at] as number;
        ends[t] = posting.starts[at + 1] as number;
      }
      // One word (walked within a caller's list): its rank alone, at its index `at`.
      found.addRanked(
        doc,
        words === 1 ? ((lists[0] as Posting).ranks[at] as number) : this.rankPlainAnd(starts, ends),
      );
    }
    return found.matches();
  }

  /**
   * searchConjunction when every word is common (each posting has its bitset): the matches are the
   * AND of the bitsets, 32 documents a step, and each word's index in its posting a population
   * count. Measured for "weather forecast" over the benchmark's 10,000 services (postings of 4,938
   * and 2,462 documents, 1,159 matches): 32 → 11 µs to match, 74 → 62 µs ranked.
   */
  private searchDense(
    postings: Posting[],
    shortest: Posting,
    accept: (doc: number) => boolean,
    ranked: boolean,
    prepared: PreparedQuery,
  ): TextMatches {
    const bitsets = postings.map((posting) => posting.bits as Int32Array);
    const found = new Collector(shortest.docs.length, ranked);
    const { seenStarts: starts, seenEnds: ends } = prepared;
    const span = (bitsets[0] as Int32Array).length;
    for (let w = 0; w < span; w += 1) {
      let bits = -1;
      for (let t = 0; t < bitsets.length && bits !== 0; t += 1)
        bits &= (bitsets[t] as Int32Array)[w] as number;
      while (bits !== 0) {
        const lowest = bits & -bits;
        bits ^= lowest;
        const doc = (w << 5) | (31 - Math.clz32(lowest));
        if (!accept(doc)) continue;
        if (!ranked) {
          found.add(doc);
          continue;
        }
        for (let t = 0; t < postings.length; t += 1) {
          const posting = postings[t] as Posting;
          const at = bitIndex(posting, doc);
          starts[t] = posting.starts[at] as number;
          ends[t] = posting.starts[at + 1] as number;
        }
        found.addRanked(doc, this.rankPlainAnd(starts, ends));
      }
    }
    return found.matches();
  }

  /** A query of one word: its posting, as accepted, with the ranks computed at load. */
  private searchWord(posting: Posting, accept: (doc: number) => boolean, ranked: boolean): TextMatches {
    if (accept === acceptAll) return { docs: posting.docs, ranks: ranked ? posting.ranks : EMPTY_RANKS };
    const found = new Collector(posting.docs.length, ranked);
    for (let i = 0; i < posting.docs.length; i += 1) {
      const doc = posting.docs[i] as number;
      if (!accept(doc)) continue;
      if (ranked) found.addRanked(doc, posting.ranks[i] as number);
      else found.add(doc);
    }
    return found.matches();
  }

  /**
   * rank() for a plain conjunction of two or more words (calc_rank_and with one lexeme per word,
   * word t's positions at [starts[t], ends[t])): the same pairs in the same order, without
   * rankAnd's bookkeeping for words that stand for several lexemes.
   */
  private rankPlainAnd(starts: Int32Array, ends: Int32Array): number {
    const { positions } = this.documents;
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

  /** Whether any document matches (the typo fallback only corrects queries that match nothing). */
  matchesAny(query: TsQuery): boolean {
    const { lexemeIds } = this.prepare(query);
    const candidates = this.candidates(query, lexemeIds);
    if (candidates === null) {
      for (let doc = 0; doc < this.size; doc += 1) if (this.matches(query, doc, lexemeIds)) return true;
      return false;
    }
    return candidates.some((doc) => this.matches(query, doc, lexemeIds));
  }

  /** What ranking needs once per search rather than once per document. */
  private prepare(query: TsQuery): PreparedQuery {
    const lexemeIds = this.resolveTerms(query);
    const rankTerms = uniqueByLexeme(queryTerms(query)).map((term) => lexemeIds.get(term) ?? []);
    const slotStarts = new Int32Array(rankTerms.length + 1);
    rankTerms.forEach((ids, t) => {
      slotStarts[t + 1] = (slotStarts[t] ?? 0) + ids.length;
    });
    return {
      lexemeIds,
      rankTerms,
      allOfAnd: (query.kind === "and" || query.kind === "phrase") && rankTerms.length >= 2,
      slots: new Int32Array(slotStarts[rankTerms.length] ?? 0),
      slotStarts,
      seenStarts: new Int32Array(rankTerms.length),
      seenEnds: new Int32Array(rankTerms.length),
    };
  }

  /** The lexeme ids each term stands for: one, none, or every lexeme with a prefix. */
  private resolveTerms(query: TsQuery): Map<Term, number[]> {
    const resolved = new Map<Term, number[]>();
    const visit = (node: TsQuery): void => {
      if (node.kind === "term") {
        if (!node.prefix) {
          const id = this.lexicon.get(node.lexeme);
          resolved.set(node, id === undefined ? [] : [id]);
        } else {
          const ids: number[] = [];
          for (const [lexeme, id] of this.lexicon) if (lexeme.startsWith(node.lexeme)) ids.push(id);
          resolved.set(node, ids);
        }
      } else if (node.kind === "not") visit(node.arg);
      else {
        visit(node.left);
        visit(node.right);
      }
    };
    visit(query);
    return resolved;
  }

  /** A superset of the matching documents, ascending; null when any document may match (NOT). */
  private candidates(node: TsQuery, lexemeIds: Map<Term, number[]>): Int32Array | null {
    switch (node.kind) {
      case "term": {
        const lists = (lexemeIds.get(node) ?? []).map((id) => (this.postings[id] ?? NO_POSTING).docs);
        return lists.length === 1 ? (lists[0] ?? EMPTY) : union(lists);
      }
      case "not":
        return null;
      case "or": {
        const left = this.candidates(node.left, lexemeIds);
        const right = this.candidates(node.right, lexemeIds);
        return left === null || right === null ? null : union([left, right]);
      }
      default: {
        // and, phrase: both sides must match, so either side's candidates will do: the fewer.
        const left = this.candidates(node.left, lexemeIds);
        const right = this.candidates(node.right, lexemeIds);
        if (left === null) return right;
        if (right === null) return left;
        return left.length <= right.length ? left : right;
      }
    }
  }

  /** The term index of the lexeme in the document, or -1. */
  private termIndex(doc: number, lexemeId: number): number {
    const { docStarts, termIds } = this.documents;
    let low = docStarts[doc] ?? 0;
    let high = (docStarts[doc + 1] ?? 0) - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = termIds[middle] ?? 0;
      if (value === lexemeId) return middle;
      if (value < lexemeId) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  private hasTerm(doc: number, term: Term, lexemeIds: Map<Term, number[]>): boolean {
    const { termStarts, termEnds, positions } = this.documents;
    for (const id of lexemeIds.get(term) ?? []) {
      const k = this.termIndex(doc, id);
      if (k < 0) continue;
      if (term.weights === 0) return true;
      for (let p = termStarts[k] ?? 0; p < (termEnds[k] ?? 0); p += 1) {
        if (term.weights & (1 << ((positions[p] ?? 0) & 3))) return true;
      }
    }
    return false;
  }

  /** The term's encoded positions in the document (of every lexeme it stands for), weights applied. */
  private termPositions(doc: number, term: Term, lexemeIds: Map<Term, number[]>): number[] {
    const { termStarts, termEnds, positions } = this.documents;
    const found: number[] = [];
    for (const id of lexemeIds.get(term) ?? []) {
      const k = this.termIndex(doc, id);
      if (k < 0) continue;
      for (let p = termStarts[k] ?? 0; p < (termEnds[k] ?? 0); p += 1) {
        const encoded = positions[p] ?? 0;
        if (term.weights === 0 || term.weights & (1 << (encoded & 3))) found.push(encoded);
      }
    }
    return found;
  }

  private matches(node: TsQuery, doc: number, lexemeIds: Map<Term, number[]>): boolean {
    switch (node.kind) {
      case "term":
        return this.hasTerm(doc, node, lexemeIds);
      case "not":
        return !this.matches(node.arg, doc, lexemeIds);
      case "and":
        return this.matches(node.left, doc, lexemeIds) && this.matches(node.right, doc, lexemeIds);
      case "or":
        return this.matches(node.left, doc, lexemeIds) || this.matches(node.right, doc, lexemeIds);
      case "phrase": {
        const positions = this.phrasePositions(node, doc, lexemeIds);
        return positions === "any" || positions.length > 0;
      }
    }
  }

  /** Positions (without weights) where the node's match ends, for phrase matching. */
  private phrasePositions(node: TsQuery, doc: number, lexemeIds: Map<Term, number[]>): Positions {
    switch (node.kind) {
      case "term":
        return this.termPositions(doc, node, lexemeIds).map((encoded) => encoded >> 2);
      case "not":
        // Where a negated word is absent anyway the phrase is free of it; otherwise, no match.
        return this.matches(node.arg, doc, lexemeIds) ? [] : "any";
      case "phrase": {
        const left = this.phrasePositions(node.left, doc, lexemeIds);
        const right = this.phrasePositions(node.right, doc, lexemeIds);
        if (right === "any") return left === "any" ? "any" : left.map((p) => p + node.distance);
        if (left === "any") return right;
        const starts = new Set(left);
        return right.filter((p) => starts.has(p - node.distance));
      }
      default: {
        const left = this.phrasePositions(node.left, doc, lexemeIds);
        const right = this.phrasePositions(node.right, doc, lexemeIds);
        if (left === "any" || right === "any") return left === "any" ? right : left;
        if (node.kind === "and" && (left.length === 0 || right.length === 0)) return [];
        return [...new Set([...left, ...right])].sort((a, b) => a - b);
      }
    }
  }

  /** Fills prepared.slots for the document: where each query lexeme's positions are in it. */
  private findSlots(prepared: PreparedQuery, doc: number): void {
    let j = 0;
    for (const ids of prepared.rankTerms) for (const id of ids) prepared.slots[j++] = this.termIndex(doc, id);
  }

  /** ts_rank(document, query, 32) of the document whose slots are in prepared.slots. */
  private rank(prepared: PreparedQuery): number {
    return finalRank(prepared.allOfAnd ? this.rankAnd(prepared) : this.rankOr(prepared));
  }

  /** calc_rank_or: each word's occurrences, the heaviest counted fully, divided by the number of words. */
  private rankOr(prepared: PreparedQuery): number {
    const { termStarts, termEnds, positions } = this.documents;
    let rank = 0;
    for (const k of prepared.slots) {
      if (k >= 0) rank += orWordRank(positions, termStarts[k] ?? 0, termEnds[k] ?? 0);
    }
    const words = prepared.rankTerms.length;
    return words > 0 ? rank / words : rank;
  }

  /** calc_rank_and: every pair of occurrences of two different words, closer pairs weighing more. */
  private rankAnd(prepared: PreparedQuery): number {
    const { termStarts, termEnds, positions } = this.documents;
    const { slots, slotStarts, seenStarts, seenEnds } = prepared;
    let seen = 0;
    let rank = -1;
    for (let t = 0; t < prepared.rankTerms.length; t += 1) {
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
}

/**
 * Words joined by AND only, each one lexeme without prefix or weight restriction: matching is then
 * the intersection of postings (see searchConjunction).
 */
function isPlainConjunction(query: TsQuery, lexemeIds: Map<Term, number[]>): boolean {
  switch (query.kind) {
    case "term":
      return !query.prefix && query.weights === 0 && (lexemeIds.get(query)?.length ?? 0) <= 1;
    case "and":
      return isPlainConjunction(query.left, lexemeIds) && isPlainConjunction(query.right, lexemeIds);
    default:
      return false;
  }
}

/**
 * The documents' arrays with the parsed positions laid out lexeme by lexeme: each posting's
 * positions together and in its document order, the order a search reads them in.
 */
function lexemeMajor(
  lexemes: number,
  termIds: Int32Array,
  parsed: readonly number[][],
  docStarts: Int32Array,
): Documents {
  const next = new Int32Array(lexemes);
  termIds.forEach((id, k) => {
    next[id] = (next[id] as number) + (parsed[k]?.length ?? 0);
  });
  let offset = 0;
  next.forEach((count, id) => {
    next[id] = offset;
    offset += count;
  });
  const positions = new Int32Array(offset);
  const termStarts = new Int32Array(termIds.length);
  const termEnds = new Int32Array(termIds.length);
  termIds.forEach((id, k) => {
    const at = parsed[k] ?? [];
    const start = next[id] as number;
    positions.set(at, start);
    termStarts[k] = start;
    termEnds[k] = start + at.length;
    next[id] = start + at.length;
  });
  return { docStarts, termIds, termStarts, termEnds, positions };
}

/** The number of 1 bits of a 32-bit integer. */
function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** For each word of a bitset, how many bits the words before it hold. */
function prefixCounts(bits: Int32Array): Int32Array {
  const counts = new Int32Array(bits.length);
  for (let w = 1; w < bits.length; w += 1)
    counts[w] = (counts[w - 1] as number) + popcount(bits[w - 1] as number);
  return counts;
}

/** The index in posting.docs of a document the posting's bitset holds. */
function bitIndex(posting: Posting, doc: number): number {
  const w = doc >> 5;
  const below = ((posting.bits as Int32Array)[w] as number) & ((1 << (doc & 31)) - 1);
  return ((posting.bitCounts as Int32Array)[w] as number) + popcount(below);
}

function uniqueByLexeme(terms: Term[]): Term[] {
  const seen = new Map<string, Term>();
  for (const term of terms) if (!seen.has(term.lexeme)) seen.set(term.lexeme, term);
  return [...seen.values()];
}

/** Sorted union of ascending lists, without repeats. */
function union(lists: Int32Array[]): Int32Array {
  const merged = new Set<number>();
  for (const list of lists) for (const doc of list) merged.add(doc);
  return Int32Array.from([...merged].sort((a, b) => a - b));
}
