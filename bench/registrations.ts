// Registration benchmark: sellers register URLs through the HTTP API (POST /v1/registrations) at the
// default politeness, and registered origins are re-indexed one after another as the schedule does.
// Seller origins are made-up host names answered by one loopback process (registration-origins.ts).
// Standalone: `node --import tsx bench/registrations.ts [registrations] [origins]`.
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Accounts, DEFAULT_ACCOUNT_SETTINGS } from "../src/accounts/accounts";
import { loadConfig } from "../src/config/config";
import { crawlSettingsFromConfig } from "../src/crawl-run/settings";
import { createReadPool } from "../src/db/read-pool";
import { createApp } from "../src/http/app";
import { listen } from "../src/http/server";
import type { HostResolver } from "../src/probe/resolve-target";
import { probeSettingsFromConfig } from "../src/probe/settings";
import { originCheckDeps, Registrar } from "../src/registrations/registrar";
import { submitRegistration } from "../src/registrations/registrations";
import { reindexOrigin } from "../src/registrations/reindex";
import { registrationSettingsFromConfig } from "../src/registrations/settings";
import { benchDatabase, benchLogger, markdownTable, peakMemoryGrowthMb, startHelperProcess } from "./support";

/** Sellers submitting at once. */
const SUBMITTERS = 8;
/** Every made-up seller host reaches the origins process on loopback. */
const LOOPBACK: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function runRegistrationsBenchmark(registrations = 200, origins = 1_000): Promise<string> {
  const database = await benchDatabase();
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "registration-origins.ts");
  const { info, child } = await startHelperProcess<{ port: number }>(script, []);
  const requestsSoFar = async () =>
    ((await (await fetch(`http://127.0.0.1:${info.port}/requests`)).json()) as { requests: number }).requests;
  const pool = createReadPool(database.url, 10, benchLogger);
  // The config's defaults (politeness included), with loopback reachable and the limits of callers lifted.
  const config = loadConfig({});
  const crawl = { ...crawlSettingsFromConfig(config), allowedNetworks: ["127.0.0.1/32"] };
  const probe = { ...probeSettingsFromConfig(config), allowedNetworks: ["127.0.0.1/32"] };
  const registrar = new Registrar(
    {
      db: database.db,
      databaseUrl: database.url,
      logger: benchLogger,
      settings: crawl,
      check: originCheckDeps(probe, crawl, LOOPBACK),
    },
    pool,
    { ...registrationSettingsFromConfig(config), anonymousPerHour: 1_000_000 },
  );
  const accounts = new Accounts(pool, benchLogger, {
    ...DEFAULT_ACCOUNT_SETTINGS,
    anonymousRequestsPerMinute: 1_000_000,
  });
  const api = await listen(
    createApp({ db: database.db, pool, logger: benchLogger, accounts, registrar }),
    0,
    "127.0.0.1",
  );
  try {
    // 1. Register → listed and probed, through the API.
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SUBMITTERS }, async () => {
        while (next < registrations) {
          const url = `http://r${next++}.bench.example:${info.port}/quote`;
          const begun = performance.now();
          const answer = await fetch(`http://127.0.0.1:${api.port}/v1/registrations`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ url }),
          });
          if (answer.status !== 201) throw new Error(`${url}: ${answer.status} ${await answer.text()}`);
          latencies.push(performance.now() - begun);
        }
      }),
    );
    const registerSeconds = (performance.now() - started) / 1000;
    const probed = await database.db.endpoint.count({
      where: { url: { endsWith: "/quote" }, lastProbedAt: { not: null }, service: { status: "listed" } },
    });
    latencies.sort((a, b) => a - b);

    // 2. Re-index of registered origins' manifests, one after another as the schedule runs them.
    const originUrls = Array.from({ length: origins }, (_, i) => `http://m${i}.bench.example:${info.port}`);
    for (const origin of originUrls)
      await submitRegistration(
        database.db,
        { kind: "origin", origin },
        { kind: "anonymous", address: "bench" },
      );
    const pass = async (name: string) => {
      const before = await requestsSoFar();
      const begun = performance.now();
      const {
        result: listed,
        rssMb,
        heapMb,
      } = await peakMemoryGrowthMb(async () => {
        let count = 0;
        for (const origin of originUrls) {
          const result = await reindexOrigin(registrar.deps, origin, "schedule");
          if (result.ran) count += result.listed.length;
        }
        return count;
      });
      const seconds = (performance.now() - begun) / 1000;
      return { name, seconds, requests: (await requestsSoFar()) - before, listed, rssMb, heapMb };
    };
    const passes = [await pass("first index (all new)"), await pass("re-index (unchanged)")];

    const registerTable = markdownTable(
      [
        "registrations",
        "submitters at once",
        "per host /min",
        "seconds",
        "p50 ms",
        "p99 ms",
        "max ms",
        "listed and probed",
      ],
      [
        [
          registrations,
          SUBMITTERS,
          probe.perHostPerMinute,
          registerSeconds.toFixed(1),
          percentile(latencies, 50).toFixed(0),
          percentile(latencies, 99).toFixed(0),
          (latencies.at(-1) ?? 0).toFixed(0),
          probed,
        ],
      ],
    );
    const reindexTable = markdownTable(
      [
        "pass",
        "origins",
        "seconds",
        "origins/s",
        "requests",
        "endpoints listed",
        "peak RSS growth MB",
        "peak heap growth MB",
      ],
      passes.map((p) => [
        p.name,
        origins,
        p.seconds.toFixed(1),
        (origins / p.seconds).toFixed(1),
        p.requests,
        p.listed,
        p.rssMb.toFixed(0),
        p.heapMb.toFixed(0),
      ]),
    );
    return [
      "## Registration benchmark",
      "",
      `Seller origins on made-up host names, one loopback process; embedded Postgres 17 with durable settings, ${os.cpus().length} CPUs, Node ${process.version}.`,
      `Register: POST /v1/registrations {url} through the HTTP API, ${SUBMITTERS} at once, each a new host at the default politeness (PROBE_PER_HOST_PER_MINUTE ${probe.perHostPerMinute}): the manifest read and the probe of one host are ${(60 / probe.perHostPerMinute).toFixed(1)} s apart. The answer comes once the URL and its manifest's resources are stored and the probe recorded. Goal: p99 ≤ 10 s.`,
      "Re-index: every origin's manifest (three resources) read and reconciled as a run of its registered source, one origin after another, as REGISTERED_REINDEX_EVERY runs them.",
      "Command: `node --import tsx bench/registrations.ts`",
      "",
      registerTable,
      "",
      reindexTable,
    ].join("\n");
  } finally {
    await api.close();
    await accounts.close();
    await pool.end();
    child.kill();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [registrations, origins] = process.argv.slice(2).map(Number);
  const markdown = await runRegistrationsBenchmark(registrations || undefined, origins || undefined);
  console.log(markdown);
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, "registrations.md"), `${markdown}\n`);
}
