import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";

/**
 * The language side of search, kept in Postgres: turning `q` into a tsquery with the
 * `catalogue_search` configuration (English stemming after unaccent, the same that built the
 * documents, see search-index.ts), and correcting misspelt words against the vocabulary.
 * Matching and ranking happen in memory (src/search/text-index.ts).
 *
 * `q` is first read as typed, in web-search syntax ("quoted phrase", or, -word), stemmed, so
 * "quotes" finds "quote", and ranked by ts_rank over the weighted document (name and tags weigh
 * most). Typos are the fallback: only when the words match no document at all (a misspelt
 * "stok quotes"), each word unknown to the catalogue's vocabulary (search_terms) is replaced by
 * the up to three known words most similar to it (pg_trgm similarity ≥ 0.3), and the words are
 * searched again, all required (web-search operators are not kept): ('stock' | 'stoke') & 'quotes'.
 * Correcting words rather than comparing q with whole documents keeps typo searches precise;
 * deciding on the words alone, not on the filters, means a filter never turns a word search into
 * a fuzzy one.
 */

/** q as Postgres reads it: websearch_to_tsquery, printed as tsquery text ('' when only stop words). */
export async function typedQueryText(pool: ReadPool, q: string): Promise<string> {
  const [row] = await queryRows<{ query: string }>(
    pool,
    Prisma.sql`SELECT websearch_to_tsquery('catalogue_search', ${q})::text AS query`,
  );
  return row?.query ?? "";
}

interface CorrectionRow {
  words: Array<{ known: boolean; options: string[] }>;
}

/**
 * The typo fallback for a q whose words match no document: the corrected query as tsquery text,
 * or null when every word is known already or some word resembles nothing known.
 */
export async function correctedQueryText(pool: ReadPool, q: string): Promise<string | null> {
  const [row] = await queryRows<CorrectionRow>(
    pool,
    Prisma.sql`
      SELECT coalesce((
          SELECT json_agg(json_build_object('known', t.known, 'options', t.options) ORDER BY t.ord)
          FROM (
            SELECT tok.ord, k.known,
              CASE WHEN k.known THEN ARRAY[tok.word]
                ELSE ARRAY(SELECT st.term FROM search_terms st WHERE st.term % tok.word
                           ORDER BY similarity(st.term, tok.word) DESC, st.term LIMIT 3)
              END AS options
            FROM unnest(regexp_split_to_array(lower(unaccent(${q})), '[^[:alnum:]]+')) WITH ORDINALITY AS tok(word, ord)
            -- Words under 3 letters are too short to correct: they stay as typed.
            CROSS JOIN LATERAL (SELECT length(tok.word) < 3
                                  OR EXISTS (SELECT 1 FROM search_terms st WHERE st.term = tok.word) AS known) k
            WHERE tok.word <> ''
          ) t
        ), '[]'::json) AS words`,
  );
  if (!row) return null;
  if (row.words.every((word) => word.known) || row.words.some((word) => word.options.length === 0))
    return null;
  // Options are [[:alnum:]] words quoted as lexemes: nothing in them is tsquery syntax.
  const words = row.words
    .map(({ options }) =>
      options.length === 1 ? `'${options[0]}'` : `(${options.map((o) => `'${o}'`).join(" | ")})`,
    )
    .join(" & ");
  const [converted] = await queryRows<{ query: string }>(
    pool,
    Prisma.sql`SELECT to_tsquery('catalogue_search', ${words})::text AS query`,
  );
  return converted?.query ?? null;
}
