import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";

/**
 * Matching and ranking of `q`, shared by the service and endpoint searches (documents: see
 * search-index.ts).
 *
 * `q` is first read as typed, in web-search syntax ("quoted phrase", or, -word), stemmed, so
 * "quotes" finds "quote", and ranked by ts_rank over the weighted document (name and tags weigh
 * most). Typos are the fallback: only when the words match no row at all (a misspelt
 * "stok quotes"), each word unknown to the catalogue's vocabulary (search_terms) is replaced by
 * the up to three known words most similar to it (pg_trgm similarity ≥ 0.3), and the words are
 * searched again, all required (web-search operators are not kept): ('stock' | 'stoke') & 'quotes'.
 * Correcting words rather than comparing q with whole documents keeps typo searches fast (an
 * index lookup per word) and precise; deciding on the words alone, not on the filters, means a
 * filter never turns a word search into a fuzzy one.
 */

/** The document tables; queries join them as `d`. */
export type SearchedTable = "service_search" | "endpoint_search";

/** q as typed (web-search syntax), or corrected words already in to_tsquery syntax. */
export type TextQuery = { kind: "typed"; q: string } | { kind: "corrected"; tsquery: string };

export const typed = (q: string): TextQuery => ({ kind: "typed", q });

function tsQuery(text: TextQuery): Prisma.Sql {
  return text.kind === "typed"
    ? Prisma.sql`websearch_to_tsquery('catalogue_search', ${text.q})`
    : Prisma.sql`to_tsquery('catalogue_search', ${text.tsquery})`;
}

/** Condition on the document table joined as `d`. */
export function textMatches(text: TextQuery): Prisma.Sql {
  return Prisma.sql`d.document @@ ${tsQuery(text)}`;
}

/** ts_rank normalised to 0..1 (rank / (rank + 1)); weights A 1.0, B 0.4, C 0.2, D 0.1. */
export function textRank(text: TextQuery): Prisma.Sql {
  return Prisma.sql`ts_rank(d.document, ${tsQuery(text)}, 32)`;
}

interface CorrectionRow {
  matched: boolean;
  words: Array<{ known: boolean; options: string[] }>;
}

/**
 * The typo fallback for a q that found nothing: null when its words do match some row (the
 * filters excluded them, which is an answer), when every word is known already, or when some
 * word resembles nothing known; otherwise the corrected query.
 */
export async function correctedQuery(
  pool: ReadPool,
  table: SearchedTable,
  q: string,
): Promise<TextQuery | null> {
  const [row] = await queryRows<CorrectionRow>(
    pool,
    Prisma.sql`
      SELECT
        EXISTS (SELECT 1 FROM ${Prisma.raw(table)} w WHERE w.document @@ ${tsQuery(typed(q))}) AS matched,
        coalesce((
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
  if (!row || row.matched) return null;
  if (row.words.every((word) => word.known) || row.words.some((word) => word.options.length === 0))
    return null;
  // Options are [[:alnum:]] words quoted as lexemes: nothing in them is tsquery syntax.
  const tsquery = row.words
    .map(({ options }) =>
      options.length === 1 ? `'${options[0]}'` : `(${options.map((o) => `'${o}'`).join(" | ")})`,
    )
    .join(" & ");
  return { kind: "corrected", tsquery };
}
