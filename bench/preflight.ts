// Benchmark of POST /v1/preflight: the in-process app (as npm start builds it, behind one proxy
// hop so each caller's address comes from X-Forwarded-For) preflights URLs of a loopback x402
// origin in its own process (bench/probe-fixtures.ts: even paths answer a v1 body, odd paths a v2
// PAYMENT-REQUIRED header). One request at a time over keep-alive; each answer's time is the
// client's. Three kinds: a URL the catalogue does not list (probe and judge), a catalogued one
// (its probe is also recorded), and a URL asked again within 60 s (the cached answer). A new
// caller address every PREFLIGHTS_PER_MINUTE requests keeps the per-caller limit out of the way;
// the probes' per-host limit is lifted, as the origin is one host.
// Standalone: `node --import tsx bench/preflight.ts [preflights per kind]`.

import type { ChildProcess } from "node:child_process";
import os from "node:os";
import { createReadPool } from "../src/db/read-pool";
import { createApp } from "../src/http/app";
import { listen } from "../src/http/server";
import { systemResolver } from "../src/probe/resolve-target";
import { AddressPolicy } from "../src/probe/ssrf-guard";
import { PREFLIGHTS_PER_MINUTE, Preflight } from "../src/trust/preflight";
import { seedServices } from "../test/support/catalogue";
import { benchProbeSettings } from "./probe";
import { benchDatabase, benchLogger, markdownTable, startHelperProcess, writeBenchResult } from "./support";

const WARM_UP = 20;

/** The p-quantile of sorted values (nearest rank). */
const quantile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;

export async function runPreflightBenchmark(perKind = 500): Promise<string> {
  const database = await benchDatabase();
  const pool = createReadPool(database.url, 10, benchLogger);
  let fixtures: ChildProcess | undefined;
  try {
    const started = await startHelperProcess<{ origins: string[] }>("bench/probe-fixtures.ts", ["1"]);
    fixtures = started.child;
    const origin = started.info.origins[0] as string;
    const catalogued = Array.from({ length: perKind + WARM_UP }, (_, k) => `${origin}/catalogued/${k}`);
    await seedServices(database.db, [
      {
        name: "Loopback origin",
        domain: "127.0.0.1",
        endpoints: catalogued.map((url) => ({ method: "GET", url })),
      },
    ]);
    const settings = benchProbeSettings({ perHostPerMinute: 1_000_000 });
    const preflight = new Preflight(database.db, {
      settings,
      policy: new AddressPolicy(settings.allowedNetworks),
      resolve: systemResolver,
    });
    const app = createApp({ db: database.db, pool, logger: benchLogger, preflight, trustProxy: 1 });
    const server = await listen(app, 0, "127.0.0.1");
    let sent = 0;
    const ask = async (url: string): Promise<number> => {
      const caller = Math.floor(sent / PREFLIGHTS_PER_MINUTE);
      sent += 1;
      const at = performance.now();
      const response = await fetch(`http://127.0.0.1:${server.port}/v1/preflight`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": `10.${(caller >> 16) & 255}.${(caller >> 8) & 255}.${caller & 255}`,
        },
        body: JSON.stringify({ url, method: "GET" }),
      });
      const body = (await response.json()) as { outcome?: string };
      const ms = performance.now() - at;
      if (response.status !== 200 || body.outcome !== "challenge")
        throw new Error(`preflight of ${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
      return ms;
    };
    const kinds: Array<[kind: string, urls: string[]]> = [
      ["a URL not catalogued (probe and judge)", catalogued.map((_, k) => `${origin}/elsewhere/${k}`)],
      ["a catalogued URL (probe, judge, record)", catalogued],
      ["the same URL again within 60 s (cached)", catalogued.map(() => `${origin}/elsewhere/0`)],
    ];
    const rows: Array<Array<string | number>> = [];
    try {
      for (const [kind, urls] of kinds) {
        const loadBefore = os.loadavg()[0] ?? 0;
        for (const url of urls.slice(0, WARM_UP)) await ask(url);
        const times: number[] = [];
        const began = performance.now();
        for (const url of urls.slice(WARM_UP)) times.push(await ask(url));
        const seconds = (performance.now() - began) / 1000;
        times.sort((a, b) => a - b);
        rows.push([
          kind,
          times.length,
          quantile(times, 0.5).toFixed(1),
          quantile(times, 0.99).toFixed(1),
          (times.length / seconds).toFixed(0),
          `${loadBefore.toFixed(1)} → ${(os.loadavg()[0] ?? 0).toFixed(1)}`,
        ]);
      }
    } finally {
      await server.close();
    }
    const markdown = [
      "## Preflight",
      "",
      markdownTable(
        ["preflight of", "requests", "p50 ms", "p99 ms", "requests/s (1 at a time)", "load before → after"],
        rows,
      ),
      "",
      `After ${WARM_UP} requests of warm-up per kind. Machine: ${os.cpus().length} CPUs shared with Postgres and the origin.`,
      `Command: \`node --import tsx bench/preflight.ts ${perKind}\`.`,
    ].join("\n");
    return await writeBenchResult("preflight", markdown);
  } finally {
    fixtures?.kill();
    await pool.end();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runPreflightBenchmark(Number(process.argv[2] ?? 500)));
}
