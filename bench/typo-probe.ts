import { readWords } from "../src/catalogue/text-search";
import { startEmbeddedPostgres } from "../src/db/embedded-postgres";
import { createReadPool } from "../src/db/read-pool";
import { benchLogger } from "./support";
const server = await startEmbeddedPostgres({ dataDir: "/tmp/kept-100000", preferredPort: 0, database: "catalogue", logger: benchLogger });
const pool = createReadPool(server.url, 2, benchLogger);
const { rows } = await pool.query("SELECT count(*) FROM search_terms");
console.log("terms", rows[0]);
if (process.argv[2] === "index") await pool.query("CREATE INDEX IF NOT EXISTS search_terms_length_idx ON search_terms (length(term), term)");
if (process.argv[2] === "drop") await pool.query("DROP INDEX IF EXISTS search_terms_length_idx");
await pool.query("ANALYZE search_terms");
for (const q of ["wether forcast", "prce feed", "translatoin servise", "blokchain explorr"]) {
  const t = performance.now();
  for (let i = 0; i < 5; i++) await readWords(pool, q);
  console.log(q, ((performance.now() - t) / 5).toFixed(1), "ms");
}
await pool.end(); await server.stop();
