// How long the typo fallback's correction of misspelt words takes in Postgres (readWords) for a
// generated catalogue of N services, with and without the vocabulary's length index.
// Standalone: `node --import tsx bench/typo-probe.ts [services]` (default 100000).
import { refreshAllSearch } from "../src/catalogue/search-documents";
import { readWords } from "../src/catalogue/text-search";
import { createReadPool } from "../src/db/read-pool";
import { generateCatalogue } from "./api-catalogue";
import { benchDatabase, benchLogger, markdownTable } from "./support";

const QUERIES = ["wether forcast", "prce feed", "translatoin servise", "blokchain explorr"];
const ROUNDS = 5;

const services = Number(process.argv[2] ?? 100_000);
const database = await benchDatabase();
const pool = createReadPool(database.url, 2, benchLogger);
try {
  await generateCatalogue(database.url, { services, endpointsPerService: 5, historyPerService: 0 });
  await refreshAllSearch(database.db);
  const { rows } = await pool.query<{ count: string }>("SELECT count(*) FROM search_terms");
  const measure = async () => {
    await pool.query("ANALYZE search_terms");
    const times: string[] = [];
    for (const q of QUERIES) {
      const started = performance.now();
      for (let i = 0; i < ROUNDS; i += 1) await readWords(pool, q);
      times.push(((performance.now() - started) / ROUNDS).toFixed(1));
    }
    return times;
  };
  const withIndex = await measure();
  await pool.query("DROP INDEX search_terms_length_idx");
  const without = await measure();
  console.log(`${services} services, ${rows[0]?.count} vocabulary words; mean ms of ${ROUNDS} corrections`);
  console.log(
    markdownTable(
      ["q", "without the length index", "with it"],
      QUERIES.map((q, i) => [q, without[i] ?? "", withIndex[i] ?? ""]),
    ),
  );
} finally {
  await pool.end();
  await database.close();
}
