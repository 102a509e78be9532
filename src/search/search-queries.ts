import { correctedQueryText, typedQueryText } from "../catalogue/text-search";
import type { ReadPool } from "../db/read-pool";
import type { TextIndex } from "./text-index";
import { parseTsQuery, type TsQuery } from "./tsquery";

/**
 * q → parsed tsquery, with Postgres as the language authority (text-search.ts). How a text reads
 * never changes (the configuration is fixed), so typed queries are remembered: an agent's repeated
 * or paged search costs no database round trip. Corrections depend on the vocabulary and are not.
 */
export class SearchQueries {
  private readonly typedQueries = new Map<string, TsQuery | null>();

  constructor(
    private readonly pool: ReadPool,
    private readonly maxRemembered = 5_000,
  ) {}

  async typed(q: string): Promise<TsQuery | null> {
    const known = this.typedQueries.get(q);
    if (known !== undefined || this.typedQueries.has(q)) return known ?? null;
    const query = parseTsQuery(await typedQueryText(this.pool, q));
    if (this.maxRemembered === 0) return query;
    if (this.typedQueries.size >= this.maxRemembered) {
      const oldest = this.typedQueries.keys().next().value;
      if (oldest !== undefined) this.typedQueries.delete(oldest);
    }
    this.typedQueries.set(q, query);
    return query;
  }

  async corrected(q: string): Promise<TsQuery | null> {
    const text = await correctedQueryText(this.pool, q);
    return text === null ? null : parseTsQuery(text);
  }

  /**
   * Runs a search with q as typed and, when nothing matched, with its typos corrected: only if the
   * words match no document at all (filters excluding every match is an answer, not a typo).
   */
  async search<T extends { total: number }>(
    q: string | undefined,
    text: TextIndex,
    run: (query: TsQuery | null | undefined) => T,
  ): Promise<T> {
    if (q === undefined) return run(undefined);
    const typed = await this.typed(q);
    const answer = run(typed);
    if (answer.total > 0 || (typed !== null && text.matchesAny(typed))) return answer;
    const corrected = await this.corrected(q);
    return corrected === null ? answer : run(corrected);
  }
}
