import { scanTsVector } from "../load/tsvector";
import { IntList } from "../tables/int-list";
import { bitset } from "../tables/sorted-lists";
import { rankWord, type TermPositions } from "./text-ranking";

/**
 * Every document's words in a few flat arrays for the whole index (compressed sparse rows, lexeme
 * by lexeme), never typed arrays per lexeme: a catalogue has hundreds of thousands of lexemes,
 * most in a document or two, and a typed array costs ~300 bytes of headers and allocation before
 * its first element. Occurrence o (one lexeme in one document) is docs[o]; lexeme l's occurrences
 * are lexemeStarts[l]..lexemeStarts[l+1), ascending by document; occurrence o's positions are
 * positions[termStarts[o]..termEnds[o]), each (position << 2) | weight code (3 = A … 0 = D) in 16
 * bits (Postgres keeps positions below 2^14). An occurrence's index is the "term slot" ranking
 * reads positions by.
 */
export interface Documents extends TermPositions {
  documentCount: number;
  lexemeStarts: Int32Array;
  docs: Int32Array;
}

/** A lexeme's documents (ascending) and, in parallel, where its positions are. */
export interface Posting {
  /** The lexeme's id; -1 for a list of documents that is no lexeme's. */
  lexeme: number;
  docs: Int32Array;
  /** The lexeme's positions in docs[i] are positions[starts[i]..starts[i + 1]) (the index's positions). */
  starts: Int32Array;
  /**
   * For a common lexeme (in at least 1 document in 32), its documents as a bitset too, no larger
   * than `docs`: intersecting with it is one bit test per candidate instead of a search; and
   * bitCounts[w], how many documents the words before word w hold, so a document's index in
   * `docs` is one population count away.
   */
  bits: Int32Array | null;
  bitCounts: Int32Array | null;
}

export const EMPTY = new Int32Array(0);
export const NO_POSTING: Posting = {
  lexeme: -1,
  docs: EMPTY,
  starts: new Int32Array(1),
  bits: null,
  bitCounts: null,
};
/** A posting in at least 1 document in DENSE gets a bitset (see Posting.bits). */
const DENSE = 32;
/** Postings at least this long keep their one-word ranks once computed (see Postings.wordRanks). */
const LONG_POSTING = 2_048;
/** How many long postings keep their ranks (the most recently used). */
const RANKED_POSTINGS_KEPT = 256;

/**
 * Builds the index's postings from documents added one at a time (as Postgres prints tsvectors),
 * so a caller can read them in batches and free the text as it goes. Documents are scanned into
 * document-major flat lists, rearranged lexeme by lexeme when done.
 */
export class PostingsBuilder {
  private readonly lexicon = new Map<string, number>();
  private readonly occurrencesOf = new IntList();
  private readonly positionsOf = new IntList();
  /** Document-major: each document's first term; each term's lexeme and position count; the positions. */
  private readonly docTermStarts = new IntList();
  private readonly termIds = new IntList();
  /** At most 256 positions a lexeme in a tsvector (Postgres's MAXNUMPOS). */
  private readonly termCounts = new IntList(Uint16Array);
  private readonly scanned = new IntList(Uint16Array);
  /** The lexeme being scanned (its positions follow), and where its positions start. */
  private current = -1;
  private currentFrom = 0;
  private readonly onLexeme = (lexeme: string) => {
    this.closeTerm();
    let id = this.lexicon.get(lexeme);
    if (id === undefined) {
      id = this.lexicon.size;
      // A flat copy: a substring of the document would keep the whole document text alive.
      this.lexicon.set(flatCopy(lexeme), id);
      this.occurrencesOf.push(0);
      this.positionsOf.push(0);
    }
    this.current = id;
    this.currentFrom = this.scanned.length;
    this.termIds.push(id);
  };
  private readonly onPosition = (encoded: number) => this.scanned.push(encoded);

  /** Adds the next document; null for a document that was never built. */
  add(text: string | null): void {
    this.docTermStarts.push(this.termIds.length);
    if (text === null) return;
    scanTsVector(text, this.onLexeme, this.onPosition);
    this.closeTerm();
  }

  /** Counts the positions of the lexeme just scanned. */
  private closeTerm(): void {
    if (this.current < 0) return;
    const count = this.scanned.length - this.currentFrom;
    this.termCounts.push(count);
    this.occurrencesOf.addAt(this.current, 1);
    this.positionsOf.addAt(this.current, count);
    this.current = -1;
  }

  get documentCount(): number {
    return this.docTermStarts.length;
  }

  /**
   * The lexicon and flat arrays, lexeme by lexeme; the builder is spent. A large catalogue's
   * documents (millions of occurrences at 100,000 services) are built on worker threads, so this
   * runs in one turn.
   */
  finish(): { lexicon: Map<string, number>; documents: Documents } {
    const lexemes = this.lexicon.size;
    const documentCount = this.documentCount;
    const lexemeStarts = new Int32Array(lexemes + 1);
    const positionStartOf = new Int32Array(lexemes + 1);
    for (let l = 0; l < lexemes; l += 1) {
      lexemeStarts[l + 1] = (lexemeStarts[l] as number) + this.occurrencesOf.at(l);
      positionStartOf[l + 1] = (positionStartOf[l] as number) + this.positionsOf.at(l);
    }
    const occurrences = lexemeStarts[lexemes] as number;
    const docs = new Int32Array(occurrences);
    const termStarts = new Int32Array(occurrences + 1);
    const positions = new Uint16Array(positionStartOf[lexemes] as number);
    // Where each lexeme's next occurrence and positions go; documents arrive in order, so each
    // lexeme's occurrences stay ascending by document.
    const nextOccurrence = lexemeStarts.slice(0, lexemes);
    const nextPosition = positionStartOf.slice(0, lexemes);
    // Positions were scanned in term order, document after document: read them in that order.
    let read = 0;
    for (let doc = 0; doc < documentCount; doc += 1) {
      const end = doc + 1 < documentCount ? this.docTermStarts.at(doc + 1) : this.termIds.length;
      for (let k = this.docTermStarts.at(doc); k < end; k += 1) {
        const id = this.termIds.at(k);
        const o = nextOccurrence[id] as number;
        const start = nextPosition[id] as number;
        const count = this.termCounts.at(k);
        docs[o] = doc;
        termStarts[o] = start;
        for (let p = 0; p < count; p += 1) positions[start + p] = this.scanned.at(read + p);
        read += count;
        nextOccurrence[id] = o + 1;
        nextPosition[id] = start + count;
      }
    }
    // Occurrences of one lexeme have consecutive positions and lexemes follow each other, so each
    // occurrence's positions end where the next one's start.
    termStarts[occurrences] = positions.length;
    return {
      lexicon: this.lexicon,
      documents: withTermEnds({ documentCount, lexemeStarts, docs, termStarts, positions }),
    };
  }
}

/** The arrays a text index is made of, as built or moved from a worker (termEnds is a view of termStarts). */
export type FlatDocuments = Omit<Documents, "termEnds">;

/** The documents with each occurrence's end of positions: the next occurrence's start. */
export function withTermEnds(flat: FlatDocuments): Documents {
  return { ...flat, termEnds: flat.termStarts.subarray(1) };
}

/** The postings of a finished index: views into its flat arrays, and bitsets of common lexemes. */
export class Postings {
  private readonly bitsets = new Map<number, { bits: Int32Array; bitCounts: Int32Array }>();
  /** One-word ranks of recently searched long postings, by lexeme (see wordRanks). */
  private readonly rankedPostings = new Map<number, Float32Array>();

  constructor(readonly documents: Documents) {}

  /** A common lexeme's bitset, made when first searched (not all at load, which held the event loop). */
  private bitsetOf(
    l: number,
    start: number,
    end: number,
  ): { bits: Int32Array; bitCounts: Int32Array } | null {
    const { docs, documentCount } = this.documents;
    if ((end - start) * DENSE < documentCount) return null;
    let dense = this.bitsets.get(l);
    if (dense === undefined) {
      const bits = bitset(docs.subarray(start, end), documentCount);
      dense = { bits, bitCounts: prefixCounts(bits) };
      this.bitsets.set(l, dense);
    }
    return dense;
  }

  /** Lexeme l's posting (views: made per search, a few per query). */
  posting(l: number): Posting {
    if (l < 0 || l + 1 >= this.documents.lexemeStarts.length) return NO_POSTING;
    const start = this.documents.lexemeStarts[l] as number;
    const end = this.documents.lexemeStarts[l + 1] as number;
    const dense = this.bitsetOf(l, start, end);
    return {
      lexeme: l,
      docs: this.documents.docs.subarray(start, end),
      starts: this.documents.termStarts.subarray(start, end + 1),
      bits: dense?.bits ?? null,
      bitCounts: dense?.bitCounts ?? null,
    };
  }

  /** ts_rank of the posting's i-th document for a query of its lexeme alone. */
  wordRank(posting: Posting, i: number): number {
    return rankWord(this.documents.positions, posting.starts[i] as number, posting.starts[i + 1] as number);
  }

  /**
   * The one-word ranks of every document of a posting (the most common query). Computed per
   * search, not held for every lexeme (4 bytes an occurrence: 60 MB at 100,000 services); a long
   * posting's are kept while it is among the most recently searched, as common words recur.
   */
  wordRanks(posting: Posting): Float32Array {
    const kept = this.rankedPostings.get(posting.lexeme);
    if (kept !== undefined) return kept;
    const ranks = new Float32Array(posting.docs.length);
    for (let i = 0; i < ranks.length; i += 1) ranks[i] = this.wordRank(posting, i);
    if (posting.lexeme >= 0 && ranks.length >= LONG_POSTING) {
      if (this.rankedPostings.size >= RANKED_POSTINGS_KEPT) this.rankedPostings.clear();
      this.rankedPostings.set(posting.lexeme, ranks);
    }
    return ranks;
  }
}

/** A string that holds its own characters (not a slice of a longer one). */
function flatCopy(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** The term slot (occurrence index) of the lexeme in the document, or -1. */
export function termIndex({ lexemeStarts, docs }: Documents, doc: number, lexemeId: number): number {
  let low = lexemeStarts[lexemeId] ?? 0;
  let high = (lexemeStarts[lexemeId + 1] ?? 0) - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = docs[middle] ?? 0;
    if (value === doc) return middle;
    if (value < doc) low = middle + 1;
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

/** The union of two ascending lists, ascending and without repeats: one merge, no hashing or sorting. */
export function union(left: Int32Array, right: Int32Array): Int32Array {
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  const merged = new Int32Array(left.length + right.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < left.length && j < right.length) {
    const a = left[i] as number;
    const b = right[j] as number;
    merged[n++] = Math.min(a, b);
    if (a <= b) i += 1;
    if (b <= a) j += 1;
  }
  while (i < left.length) merged[n++] = left[i++] as number;
  while (j < right.length) merged[n++] = right[j++] as number;
  return merged.subarray(0, n);
}
