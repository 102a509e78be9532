import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTsQuery } from "../../../../src/search/query/tsquery";
import { TextIndex } from "../../../../src/search/text/text-index";
import { createTestDatabase, type TestDatabase } from "../../../support/database";

/**
 * The in-memory index must answer as `document @@ query` and `ts_rank(document, query, 32)` did:
 * the same documents and queries go through Postgres and through TextIndex, and must agree.
 */
const DOCUMENTS: Array<[a: string, b: string, c: string]> = [
  ["Stock Quotes API market-data", "api.tickerfeed.test Finance", "Real-time prices for equities and quotes"],
  ["Weather Forecast", "weather.example Weather", "Hourly forecast and weather alerts for any city"],
  ["Forecast Pro", "forecast.pro Analytics", "Sales forecasting with weather data; stock levels"],
  ["Image Captioning", "vision.test AI", "Caption an image; describe the weather in a photo"],
  ["Translate Text", "lingo.test Language", "Translate text between 100 languages, text to speech"],
  ["Token Swap", "dex.test Crypto", "Swap tokens at the best price; price quotes for tokens"],
  ["Geo Coder", "geo.test Maps", "Geocode an address: street address to coordinates"],
  ["Stock stock stock", "repeat.test Finance", "stock quotes stock prices stock"],
  ["", "empty.test", ""],
];

const QUERIES = [
  "stock",
  "stock quotes",
  '"stock quotes"',
  "weather forecast",
  "weather -image",
  "forecast or translate",
  "price",
  "address coordinates",
  '"street address"',
  "text speech",
  "the",
  "nothing-like-this",
  "token swap price",
  "-stock",
];

describe("TextIndex agrees with Postgres full-text search", () => {
  let database: TestDatabase;
  let client: pg.Client;
  let documents: string[];
  let index: TextIndex;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ document: string }>(
      `SELECT (setweight(to_tsvector('catalogue_search', d.a), 'A')
            || setweight(to_tsvector('catalogue_search', d.b), 'B')
            || setweight(to_tsvector('catalogue_search', d.c), 'C'))::text AS document
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS d(a, b, c, n) ORDER BY n`,
      [DOCUMENTS.map((d) => d[0]), DOCUMENTS.map((d) => d[1]), DOCUMENTS.map((d) => d[2])],
    );
    documents = rows.map((row) => row.document);
    index = await TextIndex.build(documents);
  });
  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  it.each(QUERIES)("when searching %j, then the same documents match with the same ranks", async (q) => {
    const { rows } = await client.query<{ doc: number; rank: number; query: string }>(
      `SELECT d.n - 1 AS doc, ts_rank(d.document::tsvector, q, 32) AS rank, q::text AS query
       FROM unnest($1::text[]) WITH ORDINALITY AS d(document, n),
            websearch_to_tsquery('catalogue_search', $2) AS q
       WHERE d.document::tsvector @@ q ORDER BY d.n`,
      [documents, q],
    );
    const [{ query } = { query: "" }] = (
      await client.query<{ query: string }>(
        "SELECT websearch_to_tsquery('catalogue_search', $1)::text AS query",
        [q],
      )
    ).rows;
    const parsed = parseTsQuery(query);
    const ours = parsed === null ? { docs: [], ranks: [] } : index.search(parsed);
    expect(Array.from(ours.docs)).toEqual(rows.map((r) => Number(r.doc)));
    ours.ranks.forEach((rank, i) => {
      expect(rank).toBeCloseTo(rows[i]?.rank ?? Number.NaN, 6);
    });
    expect(parsed === null ? false : index.matchesAny(parsed)).toBe(rows.length > 0);
  });

  it("when the queries above are run, then several of them match something (the comparison is not vacuous)", async () => {
    let matching = 0;
    for (const q of QUERIES) {
      const { rows } = await client.query<{ query: string }>(
        "SELECT websearch_to_tsquery('catalogue_search', $1)::text AS query",
        [q],
      );
      const parsed = parseTsQuery(rows[0]?.query ?? "");
      if (parsed && index.search(parsed).docs.length > 1) matching += 1;
    }
    expect(matching).toBeGreaterThanOrEqual(8);
  });

  it.each([
    "alpha bravo",
    "bravo charlie delta",
    "alpha echo",
    "golf alpha",
    "charlie or hotel",
    '"alpha bravo"',
    "delta -alpha",
    "kilo lima",
    "lima alpha",
  ])(
    "when %j runs over 3,000 documents with long postings, then matches and ranks agree with Postgres",
    async (q) => {
      // Words of skewed frequency (alpha in most documents, hotel in few): intersections gallop
      // over long postings, and documents repeat words at several positions. Kilo and lima are
      // rare (below the bitset threshold), so their postings are searched rather than bit-tested.
      const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
      let seed = 7;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      const texts = Array.from({ length: 3000 }, () =>
        Array.from(
          { length: 3 + Math.floor(random() * 8) },
          () => words[Math.floor(words.length * random() ** 2)],
        )
          .concat(random() < 0.025 ? ["kilo", ...(random() < 0.5 ? ["lima"] : [])] : [])
          .concat(random() < 0.01 ? ["lima"] : [])
          .join(" "),
      );
      const { rows } = await client.query<{ document: string; matched: boolean; rank: number | null }>(
        `SELECT v::text AS document, v @@ q AS matched, CASE WHEN v @@ q THEN ts_rank(v, q, 32) END AS rank
       FROM unnest($1::text[]) WITH ORDINALITY AS d(text, n),
            setweight(to_tsvector('catalogue_search', d.text), 'B') AS v,
            websearch_to_tsquery('catalogue_search', $2) AS q
       ORDER BY d.n`,
        [texts, q],
      );
      const {
        rows: [{ query } = { query: "" }],
      } = await client.query<{ query: string }>(
        "SELECT websearch_to_tsquery('catalogue_search', $1)::text AS query",
        [q],
      );
      const large = await TextIndex.build(rows.map((row) => row.document));
      const parsed = parseTsQuery(query);
      // Copied: a search's matches are read before the index's next search (TextMatches).
      const found = parsed === null ? null : large.search(parsed);
      const ours = { docs: Int32Array.from(found?.docs ?? []), ranks: Float32Array.from(found?.ranks ?? []) };
      const expected = rows.flatMap((row, doc) => (row.matched ? [doc] : []));
      expect(expected.length).toBeGreaterThan(10);
      expect(expected.length).toBeLessThan(rows.length);
      expect(Array.from(ours.docs)).toEqual(expected);
      ours.ranks.forEach((rank, i) => {
        expect(rank).toBeCloseTo(rows[expected[i] ?? -1]?.rank ?? Number.NaN, 6);
      });
      // Restricted to allowed documents (a filter's list, shorter or longer than the postings),
      // the search keeps exactly the allowed matches, with the same ranks.
      for (const every of [97, 7, 2]) {
        const allowed = Int32Array.from({ length: Math.ceil(rows.length / every) }, (_, i) => i * every);
        const restricted =
          parsed === null ? ours : large.search(parsed, (doc) => doc % every === 0, true, allowed);
        const kept = Array.from(ours.docs.keys()).filter((i) => (ours.docs[i] ?? 0) % every === 0);
        expect(Array.from(restricted.docs)).toEqual(kept.map((i) => ours.docs[i]));
        expect(Array.from(restricted.ranks)).toEqual(kept.map((i) => ours.ranks[i]));
      }
    },
  );
});
