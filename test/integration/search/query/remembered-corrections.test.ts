import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadPool, type ReadPool } from "../../../../src/db/read-pool";
import { loadCatalogue } from "../../../../src/search/load/catalogue";
import { SearchQueries } from "../../../../src/search/query/search-queries";
import type { TextIndex } from "../../../../src/search/text/text-index";
import { seedServices } from "../../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../../support/database";
import { testLogger } from "../../../support/logger";

describe("corrections of misspelt words are remembered per text index", () => {
  let database: TestDatabase;
  let pool: ReadPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 4, testLogger);
    await seedServices(database.db, [{ name: "Weather forecast", description: "Hourly weather" }]);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /** How q "wether" was corrected, searching the documents of `text`. */
  const corrected = async (queries: SearchQueries, text: TextIndex) => {
    const answered = await queries.search("wether", text, (query) => ({
      total: query === null || query === undefined ? 0 : text.search(query).docs.length,
    }));
    return answered.reading?.corrected;
  };

  it("when the same misspelt q comes again, then it is answered from memory until the text index is replaced", async () => {
    const queries = new SearchQueries(pool);
    const first = await loadCatalogue(pool);
    expect(await corrected(queries, first.services.text)).toEqual([{ word: "wether", to: ["weather"] }]);
    // The vocabulary loses the word behind the index's back: a remembered correction still reads it.
    await pool.query("DELETE FROM search_terms WHERE term = 'weather'");
    expect(await corrected(queries, first.services.text)).toEqual([{ word: "wether", to: ["weather"] }]);
    // A newer index (the catalogue's shape changed) asks Postgres again.
    const next = await loadCatalogue(pool);
    expect(await corrected(queries, next.services.text)).not.toEqual([{ word: "wether", to: ["weather"] }]);
  });

  it("when nothing may be remembered, then every misspelt q is corrected by Postgres", async () => {
    const queries = new SearchQueries(pool, 0);
    const catalogue = await loadCatalogue(pool);
    await pool.query("INSERT INTO search_terms (term) VALUES ('weather') ON CONFLICT DO NOTHING");
    expect(await corrected(queries, catalogue.services.text)).toEqual([{ word: "wether", to: ["weather"] }]);
    await pool.query("DELETE FROM search_terms WHERE term = 'weather'");
    expect(await corrected(queries, catalogue.services.text)).not.toEqual([
      { word: "wether", to: ["weather"] },
    ]);
  });
});
