import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { bitset } from "./sorted-lists";
import { rankWord, type TermPositions } from "./text-ranking";
import { parseTsVector } from "./tsvector";

/**
 * Every document in flat arrays (a few typed arrays in all, rather than objects per document):
 * document d has the terms termIds[docStarts[d]..docStarts[d+1]) (lexeme ids, ascending), and term
 * k has the positions positions[termStarts[k]..termEnds[k]), each (position << 2) | weight code
 * (3 = A … 0 = D), ascending by position. Positions are stored lexeme by lexeme (a posting's
 * positions together, in its document order), so a search walking postings reads them in order.
 */
export interface Documents extends TermPositions {
  docStarts: Int32Array;
  termIds: Int32Array;
}

/** A lexeme's documents (ascending) and, in parallel, where its positions are and its rank alone. */
export interface Posting {
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

/** The documents as the text index reads them: lexeme ids, postings and positions. */
export interface Postings {
  lexicon: Map<string, number>;
  postings: Posting[];
  documents: Documents;
}

export const EMPTY = new Int32Array(0);
export const NO_POSTING: Posting = {
  docs: EMPTY,
  starts: new Int32Array(1),
  ranks: new Float32Array(0),
  bits: null,
  bitCounts: null,
};
/** A posting in at least 1 document in DENSE gets a bitset (see Posting.bits). */
const DENSE = 32;
const YIELD_EVERY = 500;

/**
 * Documents as Postgres prints tsvectors; null for a document that was never built. Yields to
 * the event loop every few hundred documents: an API process keeps answering (from its previous
 * index) while it builds the next.
 */
export async function buildPostings(texts: ReadonlyArray<string | null>): Promise<Postings> {
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
    posting.ranks[i] = rankWord(documents.positions, start, end);
    filled[termIds[k] as number] = i + 1;
  }
  return { lexicon, postings, documents };
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

/** The term index of the lexeme in the document, or -1. */
export function termIndex({ docStarts, termIds }: Documents, doc: number, lexemeId: number): number {
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
export function bitIndex(posting: Posting, doc: number): number {
  const w = doc >> 5;
  const below = ((posting.bits as Int32Array)[w] as number) & ((1 << (doc & 31)) - 1);
  return ((posting.bitCounts as Int32Array)[w] as number) + popcount(below);
}

/** Sorted union of ascending lists, without repeats. */
export function union(lists: Int32Array[]): Int32Array {
  const merged = new Set<number>();
  for (const list of lists) for (const doc of list) merged.add(doc);
  return Int32Array.from([...merged].sort((a, b) => a - b));
}
