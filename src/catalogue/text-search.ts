import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";

/**
 * The language side of search, kept in Postgres: turning `q` into a tsquery with the
 * `catalogue_search` configuration (English stemming after unaccent, the same that built the
 * documents, see search-documents.ts), and reading misspelt words against the vocabulary.
 * Matching and ranking happen in memory (src/search/text-index.ts); which words to keep when not
 * all of them match is decided there too (src/search/partial-query.ts).
 *
 * `q` is first read as typed, in web-search syntax ("quoted phrase", or, -word), stemmed, so
 * "quotes" finds "quote", and ranked by ts_rank over the weighted document (name and tags weigh
 * most). Typos are the fallback: only when the words match no document at all (a misspelt
 * "prce feed"), each word unknown to the catalogue's vocabulary (search_terms) is replaced by
 * the up to three known words nearest to it by edit distance (Levenshtein, fuzzystrmatch): one
 * edit for words of 3 to 5 letters, two for longer ones; trigram similarity missed one-letter
 * slips in short words ("prce" and "price" share too few trigrams). Correcting words rather than
 * comparing q with whole documents keeps typo searches precise; deciding on the words alone, not
 * on the filters, means a filter never turns a word search into a fuzzy one.
 */

/** q as Postgres reads it: websearch_to_tsquery, printed as tsquery text ('' when only stop words). */
export async function typedQueryText(pool: ReadPool, q: string): Promise<string> {
  const [row] = await queryRows<{ query: string }>(
    pool,
    Prisma.sql`SELECT websearch_to_tsquery('catalogue_search', ${q})::text AS query`,
  );
  return row?.query ?? "";
}

/** Longest word corrected: the vocabulary keeps words of 3 to 40 letters (search-documents.ts). */
const MAX_CORRECTED_LENGTH = 40;

/** One word of q as the vocabulary reads it. */
export interface WordReading {
  /** Lower-case, accents removed, as the vocabulary stores words. */
  word: string;
  /** Known to the vocabulary (or shorter than 3 letters: too short to correct, kept as typed). */
  known: boolean;
  /** The word itself when known, else its nearest known words (none: nothing is near). */
  options: string[];
}

/** The words of q, in order, each known or with its nearest known words by edit distance. */
export async function readWords(pool: ReadPool, q: string): Promise<WordReading[]> {
  return queryRows<WordReading>(
    pool,
    Prisma.sql`
      SELECT tok.word, k.known,
        CASE WHEN k.known THEN ARRAY[tok.word]
          WHEN length(tok.word) > ${MAX_CORRECTED_LENGTH} THEN ARRAY[]::text[]
          ELSE ARRAY(SELECT st.term FROM search_terms st
                     WHERE length(st.term) BETWEEN length(tok.word) - d.edits AND length(tok.word) + d.edits
                       AND levenshtein_less_equal(st.term, tok.word, d.edits) <= d.edits
                     ORDER BY levenshtein(st.term, tok.word), similarity(st.term, tok.word) DESC, st.term
                     LIMIT 3)
        END AS options
      FROM unnest(regexp_split_to_array(lower(unaccent(${q})), '[^[:alnum:]]+')) WITH ORDINALITY AS tok(word, ord)
      CROSS JOIN LATERAL (SELECT CASE WHEN length(tok.word) <= 5 THEN 1 ELSE 2 END AS edits) d
      CROSS JOIN LATERAL (SELECT length(tok.word) < 3
                            OR EXISTS (SELECT 1 FROM search_terms st WHERE st.term = tok.word) AS known) k
      WHERE tok.word <> ''
      ORDER BY tok.ord`,
  );
}

/**
 * Each group of alternative words ("price" | "pace") as one stemmed tsquery text, in order; ''
 * for a group of stop words only. Words are [[:alnum:]] runs (readWords), so quoting them as
 * lexemes leaves nothing in them that tsquery syntax would read.
 */
export async function stemmedAlternatives(pool: ReadPool, groups: string[][]): Promise<string[]> {
  if (groups.length === 0) return [];
  const texts = groups.map((words) => words.map((w) => `'${w}'`).join(" | "));
  const rows = await queryRows<{ query: string }>(
    pool,
    Prisma.sql`SELECT to_tsquery('catalogue_search', g.text)::text AS query
      FROM unnest(${texts}::text[]) WITH ORDINALITY AS g(text, n) ORDER BY g.n`,
  );
  return rows.map((row) => row.query);
}
