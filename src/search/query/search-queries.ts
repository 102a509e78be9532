import { readWords, stemmedAlternatives, typedQueryText } from "../../catalogue/text-search";
import type { ReadPool } from "../../db/read-pool";
import type { TextIndex } from "../text/text-index";
import { AS_TYPED, bestPartialQuery, type QueryReading, type WordClause } from "./partial-query";
import { parseTsQuery, type TsQuery } from "./tsquery";

/** q read by the fallback: the query to run instead (null: as typed) and how q was read. */
interface Fallback {
  query: TsQuery | null;
  reading: QueryReading;
}

/** A search's answer with how its q was read (undefined without q). */
export interface SearchAnswer<T> {
  answer: T;
  reading: QueryReading | undefined;
}

/**
 * q → parsed tsquery, with Postgres as the language authority (text-search.ts). How a text reads
 * never changes (the configuration is fixed), so typed queries are remembered: an agent's repeated
 * or paged search costs no database round trip. Corrections depend on the vocabulary, which
 * changes only with the catalogue's shape, when a new text index is loaded: they are remembered
 * per text index (an agent retrying a misspelt q pays Postgres's correction once per catalogue).
 */
export class SearchQueries {
  private readonly typedQueries = new Map<string, TsQuery | null>();
  private readonly fallbacks = new WeakMap<TextIndex, Map<string, Fallback>>();

  constructor(
    private readonly pool: ReadPool,
    private readonly maxRemembered = 5_000,
  ) {}

  async typed(q: string): Promise<TsQuery | null> {
    const known = this.typedQueries.get(q);
    if (known !== undefined || this.typedQueries.has(q)) return known ?? null;
    const query = parseTsQuery(await typedQueryText(this.pool, q));
    this.remember(this.typedQueries, q, query);
    return query;
  }

  /** Keeps a value, the oldest going first beyond the limit (0: nothing is kept). */
  private remember<T>(memory: Map<string, T>, q: string, value: T): void {
    if (this.maxRemembered === 0) return;
    if (memory.size >= this.maxRemembered) {
      const oldest = memory.keys().next().value;
      if (oldest !== undefined) memory.delete(oldest);
    }
    memory.set(q, value);
  }

  /** The fallback reading of q over `text`, remembered per text index (see the class comment). */
  private async rememberedFallback(q: string, text: TextIndex): Promise<Fallback> {
    let memory = this.fallbacks.get(text);
    if (memory === undefined) {
      memory = new Map();
      this.fallbacks.set(text, memory);
    }
    const known = memory.get(q);
    if (known !== undefined) return known;
    const fallback = await this.fallback(q, text);
    this.remember(memory, q, fallback);
    return fallback;
  }

  /**
   * The fallback reading of q's words: misspelt words corrected against the vocabulary, each word
   * one clause (web-search operators are not kept), the best combination of clauses chosen on the
   * documents of `text` (see bestPartialQuery).
   */
  async fallback(q: string, text: TextIndex): Promise<Fallback> {
    const words = await readWords(this.pool, q);
    const readable = words.filter((w) => w.options.length > 0);
    const stemmed = await stemmedAlternatives(
      this.pool,
      readable.map((w) => w.options),
    );
    const clauses: WordClause[] = [];
    readable.forEach((w, i) => {
      const query = parseTsQuery(stemmed[i] ?? "");
      // A stop word ("the", "for") is no word of the search, as when q is read as typed.
      if (query !== null) clauses.push({ word: w.word, correctedTo: w.known ? null : w.options, query });
    });
    const unreadable = words.filter((w) => w.options.length === 0).map((w) => w.word);
    const best = bestPartialQuery(clauses, (query) => text.matchesAny(query));
    // Every word known and found together: q's own syntax (a "phrase", an -exclusion) is what
    // excluded every document, and that is the answer the agent asked for.
    const asWritten = unreadable.length === 0 && !best.reading.partial && best.reading.dropped.length === 0;
    if (asWritten && best.reading.corrected.length === 0) return { query: null, reading: AS_TYPED };
    return {
      query: best.query,
      reading: { ...best.reading, dropped: [...unreadable, ...best.reading.dropped] },
    };
  }

  /**
   * Runs a search with q as typed and, when its words match no document, with the fallback
   * reading (typos corrected, then the best partial match): only if the words match no document
   * at all (filters excluding every match is an answer, not a typo). A search whose words all
   * match takes the first path alone and costs nothing more.
   */
  async search<T extends { total: number }>(
    q: string | undefined,
    text: TextIndex,
    run: (query: TsQuery | null | undefined) => T,
  ): Promise<SearchAnswer<T>> {
    if (q === undefined) return { answer: run(undefined), reading: undefined };
    const typed = await this.typed(q);
    const answer = run(typed);
    if (answer.total > 0 || (typed !== null && text.matchesAny(typed))) return { answer, reading: AS_TYPED };
    const { query, reading } = await this.rememberedFallback(q, text);
    return { answer: query === null ? answer : run(query), reading };
  }
}
