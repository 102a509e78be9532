import http from "node:http";
import type { AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const ROWS = 25_000;
/** ~1.6 KB per row, ~40 MB in all: an export held in memory would retain far more than the bound. */
const DESCRIPTION_LENGTH = 1_500;
/** A fifth of the export's size (as 32 MB was of 160 MB at 100,000 rows): streaming keeps far less. */
const MAX_RETAINED_MB = 8;

// A forced collection before each sample measures what is retained, not garbage awaiting V8's
// next major GC (which lets the heap swell by tens of MB whatever the streaming does).
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

interface Download {
  records: number;
  bytes: number;
  peakRetainedMb: number;
}

/** Reads a CSV over a real socket, counting CRLF records, and samples the retained heap meanwhile. */
function download(url: string, stopAfterBytes = Number.POSITIVE_INFINITY): Promise<Download> {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => {
    collectGarbage();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 100);
  return new Promise<Download>((resolve, reject) => {
    let records = 0;
    let bytes = 0;
    let previous = 0;
    const finish = () => {
      clearInterval(sampler);
      resolve({ records, bytes, peakRetainedMb: (peak - before) / 1024 / 1024 });
    };
    const req = http.get(url, (res) => {
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (previous === 13 && chunk[0] === 10) records += 1;
        for (let i = chunk.indexOf(10, 1); i !== -1; i = chunk.indexOf(10, i + 1)) {
          if (chunk[i - 1] === 13) records += 1;
        }
        previous = chunk[chunk.length - 1] ?? 0;
        if (bytes >= stopAfterBytes) {
          req.destroy();
          finish();
        }
      });
      res.on("end", finish);
    });
    req.on("error", (error) => (bytes >= stopAfterBytes ? undefined : reject(error)));
  });
}

describe("CSV export of 25,000 services", () => {
  let database: TestDatabase;
  let api: TestApp;
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // Set-based seeding: this many rows through Prisma would take minutes. No search documents are
      // built: these exports use no q.
      await client.query(
        `WITH source AS (
           INSERT INTO sources (id, kind, base_url, updated_at)
           VALUES (gen_random_uuid(), 'html_directory', 'http://big.test/', now()) RETURNING id)
         INSERT INTO services (id, source_id, detail_url, name, description, category, first_seen_at, last_seen_at,
           volume_usdc_30d, updated_at)
         SELECT gen_random_uuid(), source.id, 'http://big.test/s/' || i, 'Service ' || i,
           repeat('x', $2::int), 'Data', now(), now(), i, now()
         FROM source, generate_series(1, $1::int) AS i`,
        [ROWS, DESCRIPTION_LENGTH],
      );
      await client.query("ANALYZE services");
    } finally {
      await client.end();
    }
    server = http.createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The API's in-memory catalogue index (which chooses the exported services) is its working set,
    // loaded once per catalogue version: loaded here, so the samples measure the export alone.
    const warm = await fetch(`${baseUrl}/v1/services?limit=1`);
    expect(warm.status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await database.drop();
  });

  it("when all rows are exported, then every row arrives and the memory retained stays far below its size", async () => {
    const result = await download(`${baseUrl}/v1/services.csv`);
    expect(result.records).toBe(ROWS + 1);
    expect(result.bytes).toBeGreaterThan(ROWS * DESCRIPTION_LENGTH);
    expect(result.peakRetainedMb).toBeLessThan(MAX_RETAINED_MB);
  }, 120_000);

  it("when the client goes away mid-download, then the cursor's connection returns to the pool", async () => {
    const result = await download(`${baseUrl}/v1/services.csv`, 5_000_000);
    expect(result.records).toBeLessThan(ROWS);
    await expect.poll(() => api.pool.totalCount - api.pool.idleCount, { timeout: 10_000 }).toBe(0);
    const again = await download(`${baseUrl}/v1/services.csv?min_volume=${ROWS - 1}`);
    expect(again.records).toBe(3); // header + the two services with the highest volumes
  }, 120_000);
});
