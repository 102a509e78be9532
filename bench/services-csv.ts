// services.csv alone: seeds a synthetic catalogue (the same one every run: setseed) with payment
// options and 30 days of probes, then times the export query through the cursor and the CSV
// writer, as the route streams it, a few times. Usage:
//   flock /tmp/bench.lock node --import tsx bench/services-csv.ts [services=25000] [runs=3]
import { stringify } from "csv-stringify/sync";
import pg from "pg";
import { SERVICE_EXPORT_COLUMNS, serviceExportQuery } from "../src/catalogue/service-export";
import { cursorBatches } from "../src/db/cursor";
import { createReadPool } from "../src/db/read-pool";
import { generateCatalogue } from "./api-catalogue";
import { benchDatabase, benchLogger } from "./support";

const services = Number(process.argv[2] ?? 25_000);
const runs = Number(process.argv[3] ?? 3);

async function addPaymentsAndProbes(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO payment_options (id, endpoint_id, origin, position, network, network_name,
        asset_symbol, price_usdc, warnings, observed_at, updated_at)
      SELECT gen_random_uuid(), e.id, 'listing', 0, 'eip155:8453', 'base', 'USDC',
        round((random() / 10)::numeric, 6), '{}', now(), now()
      FROM endpoints e`);
    await client.query(`INSERT INTO endpoint_probes (endpoint_id, probed_at, outcome, status_code, latency_ms,
        challenge_valid, drift)
      SELECT e.id, now() - (d || ' days')::interval, 'challenge', 402, 5 + 200 * random(), true, '[]'
      FROM endpoints e, generate_series(0, 9) AS d`);
    await client.query(`UPDATE endpoints SET last_verified_at = now() - interval '1 hour'`);
    await client.query("ANALYZE");
  } finally {
    await client.end();
  }
}

const database = await benchDatabase();
const pool = createReadPool(database.url, 2, benchLogger);
try {
  await generateCatalogue(database.url, { services, endpointsPerService: 3, historyPerService: 0 });
  await addPaymentsAndProbes(database.url);
  const ids = (await pool.query<{ id: string }>("SELECT id FROM services ORDER BY id")).rows.map((r) => r.id);
  for (let run = 1; run <= runs; run += 1) {
    const started = process.hrtime.bigint();
    let rows = 0;
    let bytes = stringify([[...SERVICE_EXPORT_COLUMNS]]).length;
    // The payable counts come from the in-memory catalogue in the API; the SQL cost does not depend on them.
    for await (const batch of cursorBatches(
      pool,
      serviceExportQuery(
        ids,
        ids.map(() => 0),
      ),
    )) {
      rows += batch.length;
      bytes += stringify(batch, { escape_formulas: true, record_delimiter: "windows" }).length;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [load1] = (await import("node:os")).loadavg();
    console.log(
      `run ${run}: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s = ` +
        `${Math.round(rows / seconds)} rows/s (1-min load ${load1?.toFixed(1)})`,
    );
  }
} finally {
  await pool.end();
  await database.close();
}
