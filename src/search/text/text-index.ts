import { queryTerms, type TsQuery } from "../query/tsquery";
import { hasBit, lowerBound } from "../tables/sorted-lists";
import { type Lexicon, type PackedLexemes, PackedLexicon } from "./lexicon";
import {
  candidates,
  isPlainConjunction,
  type LexemeIds,
  matches,
  resolveTerms,
  type Term,
} from "./text-matching";
import {
  bitIndex,
  type Documents,
  type FlatDocuments,
  NO_POSTING,
  type Posting,
  Postings,
  PostingsBuilder,
  termIndex,
  withTermEnds,
} from "./text-postings";
import { type RankedQuery, rankDocument, rankPlainAnd } from "./text-ranking";

/**
 * Full-text matching and ranking over documents held in memory, with the semantics of Postgres's
 * `document @@ query` and `ts_rank(document, query, 32)`, so the text index ranks as the SQL
 * did. This file chooses the path of a search; the jobs live beside it: postings and bitsets
 * (text-postings.ts), matching any tsquery (text-matching.ts), ranking (text-ranking.ts).
 */

/**
 * Matching documents (indexes as passed to TextIndex.build) and their ranks, in parallel; ranks
 * are float4, as ts_rank returns them. Read-only, and read before the index's next search: they
 * may be the index's own arrays, or the ones it collects every search's matches in.
 */
export interface TextMatches {
  docs: Int32Array;
  /** Empty when the search was not ranked. */
  ranks: Float32Array;
}

/** A text index as plain data (flat arrays and the packed lexicon): what a worker moves and an image stores. */
export interface TextData {
  lexemes: PackedLexemes;
  documents: FlatDocuments;
}

/** The `accept` of a search without filters: recognised, so a one-word search copies nothing. */
export const acceptAll = (_doc: number): boolean => true;

const EMPTY_RANKS = new Float32Array(0);

/**
 * The typed arrays the index collects a search's matches in, kept for the next search: sized for
 * the candidates in advance (no copy as they grow), off the JS heap, and allocated again only for
 * a search with more candidates than any before (a search's arrays were most of a request's garbage).
 */
class Collector {
  private docs = new Int32Array(0);
  private ranks = new Float32Array(0);
  private count = 0;
  private ranked = false;

  /** Empties the collector for a search of at most `capacity` matches. */
  start(capacity: number, ranked: boolean): this {
    if (this.docs.length < capacity) this.docs = new Int32Array(capacity);
    if (ranked && this.ranks.length < capacity) this.ranks = new Float32Array(capacity);
    this.count = 0;
    this.ranked = ranked;
    return this;
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
      ranks: this.ranked ? this.ranks.subarray(0, this.count) : EMPTY_RANKS,
    };
  }
}

interface PreparedQuery extends RankedQuery {
  lexemeIds: LexemeIds;
}

export class TextIndex {
  private readonly postings: Postings;
  private readonly documents: Documents;
  private readonly collector = new Collector();

  constructor(
    private readonly lexicon: Lexicon,
    documents: Documents,
  ) {
    this.documents = documents;
    this.postings = new Postings(documents);
  }

  /** The index made of these parts (see data). */
  static fromData({ lexemes, documents }: TextData): TextIndex {
    return new TextIndex(PackedLexicon.of(lexemes), withTermEnds(documents));
  }

  /** What the index is made of, its own arrays (not copies); a worker or an image packs the lexicon (see scale/text-data.ts). */
  parts(): { lexicon: Lexicon; documents: FlatDocuments } {
    const { termEnds: _view, ...documents } = this.documents;
    return { lexicon: this.lexicon, documents };
  }

  /** The index of documents as Postgres prints tsvectors; null for a document that was never built. */
  static build(texts: ReadonlyArray<string | null>): TextIndex {
    const builder = new PostingsBuilder();
    for (const text of texts) builder.add(text);
    const { lexicon, documents } = builder.finish();
    return new TextIndex(lexicon, documents);
  }

  get size(): number {
    return this.documents.documentCount;
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
    if (isPlainConjunction(query)) return this.searchConjunction(prepared, accept, ranked, within);
    const wordCandidates = candidates(query, this.postings, prepared.lexemeIds);
    const walked =
      within !== null && (wordCandidates === null || within.length < wordCandidates.length)
        ? within
        : wordCandidates;
    const found = this.collector.start(walked === null ? this.size : walked.length, ranked);
    const visit = (doc: number) => {
      if (!matches(this.documents, query, doc, prepared.lexemeIds) || !accept(doc)) return;
      if (!ranked) return found.add(doc);
      this.findSlots(prepared, doc);
      found.addRanked(doc, rankDocument(this.documents, prepared));
    };
    if (walked === null) for (let doc = 0; doc < this.size; doc += 1) visit(doc);
    else for (const doc of walked) visit(doc);
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
    if (prepared.rankTerms.some((ids) => ids.length === 0)) return this.collector.start(0, false).matches();
    const words = prepared.rankTerms.length;
    // The words' postings, then the documents the caller allows (a list like a posting, no word).
    const lists = prepared.rankTerms.map(([id]) => this.postings.posting(id ?? -1));
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
    const found = this.collector.start(lead.docs.length, ranked);
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
        words === 1
          ? this.postings.wordRank(lists[0] as Posting, at)
          : rankPlainAnd(this.documents.positions, starts, ends),
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
    const found = this.collector.start(shortest.docs.length, ranked);
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
        found.addRanked(doc, rankPlainAnd(this.documents.positions, starts, ends));
      }
    }
    return found.matches();
  }

  /** A query of one word: its posting, as accepted, with its one-word ranks. */
  private searchWord(posting: Posting, accept: (doc: number) => boolean, ranked: boolean): TextMatches {
    if (accept === acceptAll)
      return { docs: posting.docs, ranks: ranked ? this.postings.wordRanks(posting) : EMPTY_RANKS };
    const found = this.collector.start(posting.docs.length, ranked);
    for (let i = 0; i < posting.docs.length; i += 1) {
      const doc = posting.docs[i] as number;
      if (!accept(doc)) continue;
      if (ranked) found.addRanked(doc, this.postings.wordRank(posting, i));
      else found.add(doc);
    }
    return found.matches();
  }

  /** Whether any document matches (the typo fallback only corrects queries that match nothing). */
  matchesAny(query: TsQuery): boolean {
    const lexemeIds = resolveTerms(query, this.lexicon);
    const walked = candidates(query, this.postings, lexemeIds);
    if (walked === null) {
      for (let doc = 0; doc < this.size; doc += 1)
        if (matches(this.documents, query, doc, lexemeIds)) return true;
      return false;
    }
    return walked.some((doc) => matches(this.documents, query, doc, lexemeIds));
  }

  /** What ranking needs once per search rather than once per document. */
  private prepare(query: TsQuery): PreparedQuery {
    const lexemeIds = resolveTerms(query, this.lexicon);
    const rankTerms = uniqueByLexeme(queryTerms(query)).map((term) => {
      const id = lexemeIds.get(term) ?? -1;
      return id < 0 ? [] : [id];
    });
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

  /** Fills prepared.slots for the document: where each query lexeme's positions are in it. */
  private findSlots(prepared: PreparedQuery, doc: number): void {
    let j = 0;
    for (const ids of prepared.rankTerms)
      for (const id of ids) prepared.slots[j++] = termIndex(this.documents, doc, id);
  }
}

function uniqueByLexeme(terms: Term[]): Term[] {
  const seen = new Map<string, Term>();
  for (const term of terms) if (!seen.has(term.lexeme)) seen.set(term.lexeme, term);
  return [...seen.values()];
}
