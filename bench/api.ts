// API benchmark: a synthetic catalogue (10,000 services, 50,000 endpoints, 500,000 history rows)
// in an embedded Postgres; five representative queries, each alone (1 connection) and under load
// (10 connections), next to a bare Express JSON route (the limit of this machine); then the CSV
// exports' rows/s and peak memory growth.
// Standalone: `npx tsx bench/api.ts [seconds per load run] [connections]`.
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { Accounts, accountSettingsFromConfig } from "../src/accounts/accounts";
import { createApiKey } from "../src/accounts/api-keys";
import { API_KEYS_CHANGED_CHANNEL } from "../src/accounts/key-cache";
import { refreshAllSearch } from "../src/catalogue/search-documents";
import { loadConfig } from "../src/config/config";
import { listenFor } from "../src/db/notifications";
import { createReadPool } from "../src/db/read-pool";
import { type AppDependencies, createApp } from "../src/http/app";
import { ResponseCache } from "../src/http/response-cache";
import { listen } from "../src/http/server";
import { BENCH_CATALOGUE, generateCatalogue } from "./api-catalogue";
import { type LoadResult, load, streamCsv } from "./api-load";
import { benchDatabase, benchLogger, collectGarbage, markdownTable, peakMemoryGrowthMb } from "./support";

export interface QueryRow {
  query: string;
  /** Mean `total` of the query's variants: how many items each one matches. */
  matches: number;
  alone: LoadResult;
  /** One continuous run under load: its latencies. */
  loaded: LoadResult;
  /** Throughput: the query in slices alternating with the bare route's (null for the bare rows themselves). */
  paired: { query: LoadResult; bare: LoadResult } | null;
  /** paired query / bare throughput, in percent (null for the bare rows). */
  percentOfBare: number | null;
}

export interface CsvRow {
  export: string;
  rows: number;
  megabytes: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssGrowthMb: number;
  /** Peak growth of the heap plus buffers (heapUsed + external). */
  peakHeapGrowthMb: number;
}

export interface ApiBenchmark {
  queries: QueryRow[];
  csv: CsvRow[];
  markdown: string;
}

const BARE = "bare Express JSON route";
const STORED = "bare route sending a stored search answer";

/**
 * Each query cycles through a few variants, so no single plan or page is measured alone. Also the
 * request shapes of bench/scale.ts, which picks them by `query`.
 */
export function scenarios(serviceIds: string[]): Array<{ query: string; paths: string[] }> {
  const q = (text: string) => encodeURIComponent(text);
  return [
    {
      query: "text search",
      paths: [
        "weather forecast",
        "stock price",
        "image caption",
        "translate text",
        "crypto wallet",
        "flight hotel",
      ].map((text) => `/v1/services?q=${q(text)}`),
    },
    {
      query: "text + filters",
      paths: [
        "/v1/services?q=weather&category=Weather&min_uptime=90&max_response_ms=1000",
        "/v1/services?q=price&tag=finance&min_volume=100",
        "/v1/services?q=image&method=POST&min_tx=10&sort=volume",
        `/v1/services?q=${q("token swap")}&min_payers=5&status=all`,
      ],
    },
    {
      // Words the catalogue does not know, one or two edits from known ones: read as typed (no
      // match), then again word by word with the nearest known words (docs/api.md, "how q is read").
      query: "typo'd text search",
      paths: ["wether forcast", "stock prise", "transalte text", "crypto walet", "flihgt hotel"].map(
        (text) => `/v1/services?q=${q(text)}`,
      ),
    },
    {
      query: "filters, sorted by volume",
      paths: [
        "/v1/services",
        "/v1/services?category=Finance&min_uptime=95",
        "/v1/services?tag=crypto&method=GET",
        "/v1/services?min_volume=5000&max_response_ms=800&offset=50",
      ],
    },
    {
      query: "trust filters",
      paths: [
        "/v1/services?min_grade=B",
        "/v1/services?q=weather&min_grade=A",
        "/v1/services?min_grade=C&sort=score",
        "/v1/services?min_grade=B&health=live&no_warning=slow",
      ],
    },
    {
      query: "endpoint search",
      paths: ["forecast", "transcribe audio", "geocode address", "token price", "generate image"].map(
        (text) => `/v1/endpoints?q=${q(text)}`,
      ),
    },
    { query: "service detail", paths: serviceIds.map((id) => `/v1/services/${id}`) },
  ];
}

/** Checks every variant answers 200 and returns the mean number of items they match. */
export async function meanMatches(
  baseUrl: string,
  paths: string[],
  headers?: Record<string, string>,
): Promise<number> {
  let sum = 0;
  for (const p of paths) {
    const response = await fetch(baseUrl + p, { headers });
    if (response.status !== 200) throw new Error(`${p}: HTTP ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { total?: number };
    sum += body.total ?? 1;
  }
  return sum / paths.length;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** Load slices per query row: its loaded time is split into this many, alternating with the bare route's. */
const SLICES = 6;

/** Slices of one load as one throughput: requests and errors add up (latencies come from a continuous run). */
function combined(slices: LoadResult[]): LoadResult {
  const sum = (field: "requests" | "non2xx" | "errors") => slices.reduce((total, s) => total + s[field], 0);
  return {
    p50Ms: Number.NaN,
    p99Ms: Number.NaN,
    requestsPerSecond: slices.reduce((total, s) => total + s.requestsPerSecond, 0) / slices.length,
    requests: sum("requests"),
    non2xx: sum("non2xx"),
    errors: sum("errors"),
  };
}

function report(queries: QueryRow[], csv: CsvRow[], setup: string[], connections: number): string {
  const queryTable = markdownTable(
    [
      "query",
      "matches",
      "p50 ms alone",
      "p99 ms alone",
      `p50 ms, ${connections} conn.`,
      `p99 ms, ${connections} conn.`,
      "req/s",
      "bare req/s, same slices",
      "% of bare",
    ],
    queries.map((r) => [
      r.query,
      r.query.startsWith(BARE) || r.query.startsWith(STORED) ? "–" : Math.round(r.matches),
      fixed(r.alone.p50Ms),
      fixed(r.alone.p99Ms),
      fixed(r.loaded.p50Ms),
      fixed(r.loaded.p99Ms),
      Math.round((r.paired?.query ?? r.loaded).requestsPerSecond),
      r.paired === null ? "–" : Math.round(r.paired.bare.requestsPerSecond),
      r.percentOfBare === null ? "–" : fixed(r.percentOfBare),
    ]),
  );
  const csvTable = markdownTable(
    ["export", "rows", "MB", "seconds", "rows/s", "peak RSS growth MB", "peak heap growth MB"],
    csv.map((r) => [
      r.export,
      r.rows,
      fixed(r.megabytes),
      fixed(r.seconds, 2),
      Math.round(r.rowsPerSecond),
      fixed(r.peakRssGrowthMb),
      fixed(r.peakHeapGrowthMb),
    ]),
  );
  return [
    "## API benchmark",
    "",
    ...setup.map((line) => `- ${line}`),
    "",
    queryTable,
    "",
    csvTable,
    "",
    "Targets: p99 ≤ 25 ms; search throughput ≥ 40% of the bare route; CSV ≥ 100,000 rows/s with ≤ 100 MB memory growth.",
  ].join("\n");
}

export async function runApiBenchmark(durationSeconds = 10, connections = 10): Promise<ApiBenchmark> {
  const loadBefore = os.loadavg()[0] ?? 0;
  const database = await benchDatabase();
  const pool = createReadPool(database.url, connections, benchLogger);
  const servers: Array<{ close(): Promise<void> }> = [];
  const openAccounts: Accounts[] = [];
  // Verified keys are kept in memory, as `npm start` keeps them (src/accounts/key-cache.ts).
  const keyChanges = listenFor(database.url, API_KEYS_CHANGED_CHANNEL, benchLogger);
  try {
    let started = performance.now();
    await generateCatalogue(database.url);
    const generateSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await refreshAllSearch(database.db);
    await pool.query("VACUUM ANALYZE");
    const indexSeconds = (performance.now() - started) / 1000;

    // Both apps as the product runs them (API_INDEX_REFRESH_SECONDS=60): lists and searches are
    // answered from the in-memory catalogue. The first has no response cache, so every
    // request is computed; the second adds the product's default cache (answers reused for 10 s).
    // Every request passes the product's request guard (keys, shared rate limits in Postgres,
    // usage). The load comes from one address: the anonymous limit is raised through configuration,
    // as an operator would; the key's organisation gets a plan with room for the load.
    const config = loadConfig({
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: "100000000",
      RATE_LIMIT_ANONYMOUS_CSV_ROWS_PER_DAY: "1000000000",
    });
    const accountSettings = accountSettingsFromConfig(config);
    await database.db.plan.create({ data: { id: "bench", requestsPerMinute: 100_000_000 } });
    const organisation = await database.db.organisation.create({ data: { name: "bench", planId: "bench" } });
    const { key } = await createApiKey(
      database.db,
      { organisationId: organisation.id, environment: "live" },
      ["catalogue:read"],
    );
    const startApp = async (options: Partial<AppDependencies>): Promise<string> => {
      const accounts = new Accounts(pool, benchLogger, accountSettings, keyChanges);
      const app = createApp({
        db: database.db,
        pool,
        logger: benchLogger,
        indexRefreshMs: 60_000,
        accounts,
        ...options,
      });
      openAccounts.push(accounts);
      const server = await listen(app, 0, "127.0.0.1");
      servers.push(server); // only this list refers to the server (and its index) from here on
      return `http://127.0.0.1:${server.port}`;
    };
    const apiUrl = await startApp({});
    const cachedUrl = await startApp({ responseCache: new ResponseCache(10_000, 2_000) });
    // The worst case for a search: no q text remembered, so Postgres reads every q again.
    const forgetfulUrl = await startApp({ rememberedQueries: 0 });
    // What one index holds in memory: heap and buffers, from collected heaps before and after.
    const liveBytes = () => {
      collectGarbage();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };
    const bytesBefore = liveBytes();
    started = performance.now();
    for (const url of [apiUrl, cachedUrl, forgetfulUrl]) {
      const response = await fetch(`${url}/v1/services?limit=1`);
      if (response.status !== 200) throw new Error(`index load: HTTP ${response.status}`);
    }
    const indexLoadSeconds = (performance.now() - started) / 3000;
    const indexMb = (liveBytes() - bytesBefore) / 3 / 1e6;
    const bareApp = express();
    bareApp.get("/bare", (_req, res) => {
      res.json({ items: [], has_more: false, total: 0 });
    });
    // The limit for answers of a search's size: a real search answer (~70 KB), stored, sent with
    // no work at all (no search, no ETag), so "% of bare" can be read against what sending costs.
    const stored = Buffer.from(await (await fetch(`${apiUrl}/v1/services?q=weather`)).arrayBuffer());
    bareApp.get("/stored", (_req, res) => {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.end(stored);
    });
    const bare = await listen(bareApp, 0, "127.0.0.1");
    servers.push(bare);

    const { rows: sample } = await pool.query<{ id: string }>(
      "SELECT id::text FROM services WHERE status = 'listed' ORDER BY md5(id::text) LIMIT 200",
    );
    const aloneSeconds = Math.max(2, Math.round(durationSeconds / 2));
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const sliceSeconds = durationSeconds / SLICES;
    /** Latencies: alone (1 connection), then under load in one continuous run, after a warm-up. */
    const latencies = async (baseUrl: string, paths: string[], headers?: Record<string, string>) => {
      await load(baseUrl, paths, { connections, durationSeconds: 2, headers }); // warm-up, not reported
      return {
        alone: await load(baseUrl, paths, { connections: 1, durationSeconds: aloneSeconds, headers }),
        loaded: await load(baseUrl, paths, { connections, durationSeconds, headers }),
      };
    };
    const measure = async (
      baseUrl: string,
      paths: string[],
      headers?: Record<string, string>,
    ): Promise<Omit<QueryRow, "query" | "matches">> => {
      const { alone, loaded } = await latencies(baseUrl, paths, headers);
      // The machine's speed drifts over minutes (other tenants, Postgres's background work): the
      // query's throughput is measured again in slices alternating with the bare route's (bare,
      // query, query, bare, …), so both see the same machine and neither always goes first.
      const slices: Record<"query" | "bare", LoadResult[]> = { query: [], bare: [] };
      for (let i = 0; i < SLICES; i += 1) {
        const order = i % 2 === 0 ? (["bare", "query"] as const) : (["query", "bare"] as const);
        for (const which of order) {
          const [url, asked, sent] =
            which === "bare" ? [bareUrl, ["/bare"], undefined] : [baseUrl, paths, headers];
          slices[which].push(
            await load(url, asked, { connections, durationSeconds: sliceSeconds, headers: sent }),
          );
        }
      }
      const paired = { query: combined(slices.query), bare: combined(slices.bare) };
      for (const run of [loaded, paired.query]) {
        if (run.non2xx + run.errors > 0) {
          throw new Error(`${paths[0]}: ${run.non2xx} answers not 2xx, ${run.errors} errors under load`);
        }
      }
      return {
        alone,
        loaded,
        paired,
        percentOfBare: (100 * paired.query.requestsPerSecond) / paired.bare.requestsPerSecond,
      };
    };
    const measureBare = async (): Promise<Omit<QueryRow, "query" | "matches">> => ({
      ...(await latencies(bareUrl, ["/bare"])),
      paired: null,
      percentOfBare: null,
    });
    // The bare route alone, first and last: how far the machine drifted over the run.
    const queries: QueryRow[] = [
      { query: `${BARE} (first)`, matches: 0, ...(await measureBare()) },
      {
        query: `${STORED} (${Math.round(stored.length / 1024)} KB)`,
        matches: 0,
        ...(await measure(bareUrl, ["/stored"])),
      },
    ];
    const all = scenarios(sample.map((r) => r.id));
    const withKey = { authorization: `Bearer ${key}` };
    for (const [suffix, baseUrl, chosen, headers] of [
      ["", apiUrl, all, undefined],
      [", with an API key", apiUrl, all.slice(0, 2), withKey],
      [", q read by Postgres every time", forgetfulUrl, all.slice(0, 2), undefined],
      [" (response cache)", cachedUrl, all, undefined],
    ] as const) {
      for (const scenario of chosen) {
        const matches = await meanMatches(baseUrl, scenario.paths, headers);
        queries.push({
          query: `${scenario.query}${suffix}`,
          matches,
          ...(await measure(baseUrl, scenario.paths, headers)),
        });
      }
    }
    queries.push({ query: `${BARE} (last)`, matches: 0, ...(await measureBare()) });

    // The exports as a product process serves them: with one app, so one loaded catalogue in memory
    // (the two extra apps and their catalogues go first; a bigger live heap lets V8 defer collection
    // longer and would inflate the growth measured).
    for (const server of servers.splice(1)) await server.close();
    const csv: CsvRow[] = [];
    for (const [name, url] of [
      ["history.csv (all history)", `${apiUrl}/v1/history.csv`],
      ["services.csv (all statuses)", `${apiUrl}/v1/services.csv?status=all`],
    ] as const) {
      collectGarbage();
      const { result, rssMb, heapMb } = await peakMemoryGrowthMb(() => streamCsv(url));
      csv.push({
        export: name,
        rows: result.records - 1,
        megabytes: result.bytes / 1024 / 1024,
        seconds: result.seconds,
        rowsPerSecond: (result.records - 1) / result.seconds,
        peakRssGrowthMb: rssMb,
        peakHeapGrowthMb: heapMb,
      });
    }

    const setup = [
      `Catalogue: ${BENCH_CATALOGUE.services.toLocaleString("en")} services, ` +
        `${(BENCH_CATALOGUE.services * BENCH_CATALOGUE.endpointsPerService).toLocaleString("en")} endpoints, ` +
        `${(BENCH_CATALOGUE.services * BENCH_CATALOGUE.historyPerService).toLocaleString("en")} history rows ` +
        `(generated in ${fixed(generateSeconds)} s, search documents built in ${fixed(indexSeconds)} s, ` +
        `in-memory index loaded in ${fixed(indexLoadSeconds)} s and holding ${Math.round(indexMb)} MB per app).`,
      `Load: autocannon in a worker thread against the in-process app on 127.0.0.1; per query ${aloneSeconds} s ` +
        `with 1 connection ("alone"), then ${durationSeconds} s with ${connections} (the latencies), then ` +
        `${durationSeconds} s with ${connections} again in ${SLICES} slices of ${fixed(sliceSeconds)} s alternating ` +
        "with as many slices of the bare route (bare, query, query, bare, …): req/s and % of bare compare the two " +
        "over those slices; after a 2 s warm-up. " +
        "Matches: mean total of the query's variants. Embedded Postgres 17, durable settings.",
      "CSV: downloaded by a separate process; peak growth of the benchmark process's (the server's) RSS and of its heap plus buffers, sampled every 20 ms, " +
        "from a collected heap (a full GC just before each export, so earlier benchmarks' garbage is not counted).",
      `Machine: ${os.cpus().length} CPUs shared with Postgres and the load generator; 1-minute load average ` +
        `${fixed(loadBefore)} before the run and ${fixed(os.loadavg()[0] ?? 0)} after (other processes count too).`,
      "Command: `npx tsx bench/api.ts` (or `npm run bench`).",
    ];
    const markdown = report(queries, csv, setup, connections);
    const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
    await mkdir(resultsDir, { recursive: true });
    await writeFile(path.join(resultsDir, "api.md"), `${markdown}\n`);
    return { queries, csv, markdown };
  } finally {
    for (const server of servers.reverse()) await server.close();
    for (const accounts of openAccounts) await accounts.close();
    await keyChanges.close();
    await pool.end();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runApiBenchmark(Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 10));
  console.log(result.markdown);
}
