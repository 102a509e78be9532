// Pages benchmark: the pages for people (src/pages) on the synthetic catalogue of bench/api.ts
// (10,000 services, 50,000 endpoints, 500,000 history rows; 30 days of hourly probes of the 50
// sampled services' endpoints). Per page: latency with one
// connection (on loopback, the server's time) after a warm-up, and the bytes a browser receives
// (gzip, as browsers ask for it). Standalone: `npx tsx bench/pages.ts [seconds per page]`.
import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Accounts } from "../src/accounts/accounts";
import { refreshAllSearch } from "../src/catalogue/search-documents";
import { createReadPool } from "../src/db/read-pool";
import { createApp } from "../src/http/app";
import { listen } from "../src/http/server";
import { generateCatalogue } from "./api-catalogue";
import { load } from "./api-load";
import { benchDatabase, benchLogger, markdownTable } from "./support";

const BROWSER = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip",
};

/** The bytes of one answer as sent (compressed when the server compresses). */
function transferred(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: BROWSER }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
      })
      .on("error", reject);
  });
}

/**
 * 30 days of hourly probes (the default sweep) of every endpoint of the sampled services: one in
 * twenty a 503, the rest a valid challenge at 0.01 USDC. The detail pages chart them per day.
 */
const PROBE_HISTORY = `
  INSERT INTO endpoint_probes (endpoint_id, probed_at, outcome, status_code, latency_ms, challenge_valid, options)
  SELECT e.id, now() - h * interval '1 hour', CASE WHEN h % 20 = 0 THEN 'http_error' ELSE 'challenge' END,
    CASE WHEN h % 20 = 0 THEN 503 ELSE 402 END, 40 + (h * 37) % 400, h % 20 <> 0,
    CASE WHEN h % 20 <> 0 THEN '[{"price_usdc": "0.01"}]'::jsonb END
  FROM endpoints e CROSS JOIN generate_series(1, 720) AS h
  WHERE e.service_id = ANY($1::uuid[])`;

export async function runPagesBenchmark(secondsPerPage = 5): Promise<string> {
  const database = await benchDatabase();
  const pool = createReadPool(database.url, 10, benchLogger);
  const accounts = new Accounts(pool, benchLogger, {
    anonymousRequestsPerMinute: 100_000_000,
    anonymousCsvRowsPerDay: 1_000_000_000,
    usageFlushMs: 60_000,
    exportsPerCaller: 100,
    exportsPerProcess: 100,
  });
  try {
    await generateCatalogue(database.url);
    await refreshAllSearch(database.db);
    const { rows: sample } = await pool.query<{ id: string }>(
      "SELECT id::text FROM services WHERE status = 'listed' ORDER BY md5(id::text) LIMIT 50",
    );
    const ids = sample.map((r) => r.id);
    await database.db.$executeRawUnsafe(PROBE_HISTORY, ids);
    await pool.query("VACUUM ANALYZE");
    // As the product runs: the in-memory catalogue checked every 60 s, no response cache (pages never use it).
    const app = createApp({ db: database.db, pool, logger: benchLogger, indexRefreshMs: 60_000, accounts });
    const server = await listen(app, 0, "127.0.0.1");
    const baseUrl = `http://127.0.0.1:${server.port}`;
    try {
      const pages: Array<{ page: string; paths: string[] }> = [
        { page: "/ (overview)", paths: ["/"] },
        { page: "/services", paths: ["/services", "/services?sort=name", "/services?offset=50"] },
        {
          page: "/services?q=…&filters",
          paths: [
            "/services?q=weather",
            "/services?q=stock+price&min_uptime=90",
            "/services?category=Weather&sort=uptime",
          ],
        },
        { page: "/services/{id}", paths: ids.map((id) => `/services/${id}`) },
        { page: "/endpoints?q=…", paths: ["/endpoints?q=forecast", "/endpoints?q=token+price"] },
        { page: "/stats", paths: ["/stats"] },
        { page: "/badge/{id}.svg", paths: ids.map((id) => `/badge/${id}.svg`) },
      ];
      const rows: Array<Array<string | number>> = [];
      for (const { page, paths } of pages) {
        const sizes = await Promise.all(paths.slice(0, 10).map((p) => transferred(baseUrl + p)));
        const failed = sizes.find((s) => s.status !== 200);
        if (failed) throw new Error(`${page}: HTTP ${failed.status}`);
        await load(baseUrl, paths, { connections: 1, durationSeconds: 2, headers: BROWSER }); // warm-up
        const result = await load(baseUrl, paths, {
          connections: 1,
          durationSeconds: secondsPerPage,
          headers: BROWSER,
        });
        const bytes = sizes.map((s) => s.bytes);
        rows.push([
          page,
          result.p50Ms,
          result.p99Ms,
          Math.round(result.requestsPerSecond),
          Math.round(bytes.reduce((a, b) => a + b, 0) / bytes.length / 102.4) / 10,
          Math.round(Math.max(...bytes) / 102.4) / 10,
        ]);
      }
      const markdown = [
        "## Pages",
        "",
        markdownTable(
          ["page", "p50 ms", "p99 ms", "req/s (1 connection)", "KB sent (mean, gzip)", "KB sent (max, gzip)"],
          rows,
        ),
        "",
        "Catalogue: 10,000 services, 50,000 endpoints, 500,000 history rows (bench/api-catalogue.ts); " +
          "30 days of hourly probes of the 50 sampled services' endpoints. " +
          "One connection on loopback after a 2 s warm-up, each page cycling through its variants; " +
          `${secondsPerPage} s per page. Targets: p99 ≤ 30 ms for list and detail pages; a detail page ≤ 150 KB sent.`,
        `Machine: ${os.cpus().length} CPUs shared with Postgres and the load generator.`,
        "Command: `npx tsx bench/pages.ts` (or `npm run bench`).",
      ].join("\n");
      const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
      await mkdir(resultsDir, { recursive: true });
      await writeFile(path.join(resultsDir, "pages.md"), `${markdown}\n`);
      return markdown;
    } finally {
      await server.close();
    }
  } finally {
    await accounts.close();
    await pool.end();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runPagesBenchmark(Number(process.argv[2] ?? 5)));
}
