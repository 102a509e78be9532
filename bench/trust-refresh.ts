// Benchmark of the trust verdicts' recompute after a probe sweep (src/trust/refresh.ts): health,
// named checks, grades, scores and warnings of every listed endpoint and service, computed from
// the probe history and stored with their health_changed events. N listed endpoints (5 a
// service), P probes each over the last days, written with set-based SQL from one real probe of
// a loopback x402 origin (its checks and payment options): most endpoints answer a valid
// challenge, one in twenty answers nothing, one in twenty answers 404 (a zombie). Time, CPU of
// this process and of Postgres, and memory growth, for the first recompute (most verdicts move
// from the generated ones: events are written) and for one after a sweep that changed nothing.
// Standalone: `node --import tsx bench/trust-refresh.ts [endpoints] [probes per endpoint]`.

import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import pg from "pg";
import { loadConfig } from "../src/config/config";
import { type ProbeResult, probeEndpoint } from "../src/probe/probe-endpoint";
import { systemResolver } from "../src/probe/resolve-target";
import { AddressPolicy } from "../src/probe/ssrf-guard";
import { refreshTrust, trustSettingsFromConfig } from "../src/trust/refresh";
import { v2ChallengeHeader } from "../test/support/x402-challenges";
import { generateCatalogue } from "./api-catalogue";
import { benchProbeSettings } from "./probe";
import { descendantCpuSeconds } from "./process-cpu";
import {
  benchDatabase,
  benchLogger,
  collectGarbage,
  heapFlags,
  MEASURING_HERE,
  markdownTable,
  measureWithHeapOf,
  peakMemoryGrowthMb,
  writeBenchResult,
} from "./support";

const ENDPOINTS_PER_SERVICE = 5;
/** generateCatalogue delists one service in twenty; the rest are listed. */
const LISTED_SHARE = 0.95;
/** Hours between two probes of an endpoint (a sweep every 4 hours). */
const PROBE_EVERY_HOURS = 4;

/** One probe of a loopback origin answering a v2 challenge: the checks and options a sweep records. */
async function realProbe(): Promise<ProbeResult> {
  const server = http.createServer((req, res) => {
    req.resume();
    const header = v2ChallengeHeader(`http://127.0.0.1${req.url ?? "/"}`);
    res.writeHead(402, { "content-type": "application/json", "payment-required": header }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const settings = benchProbeSettings({});
    const { port } = server.address() as AddressInfo;
    const deps = { settings, policy: new AddressPolicy(settings.allowedNetworks), resolve: systemResolver };
    const probe = await probeEndpoint({ method: "GET", url: `http://127.0.0.1:${port}/paid` }, deps);
    if (!probe.challengeValid) throw new Error(`the origin's challenge was not read: ${probe.error}`);
    return probe;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * Probes of every listed endpoint, newest now, one every PROBE_EVERY_HOURS; each endpoint's live
 * payment option (a pay_to per service) as a sweep stores it. Which way an endpoint answers is
 * drawn from its id, so every probe of it answers the same way.
 */
async function writeProbes(
  databaseUrl: string,
  probesPerEndpoint: number,
  probe: ProbeResult,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [option] = probe.options;
    if (option === undefined) throw new Error("the probe read no payment option");
    await client.query(`
      CREATE TEMP TABLE answers AS
      SELECT e.id AS endpoint_id, abs(hashtext(e.id::text)) % 20 AS draw,
        '0x' || substr(md5(e.service_id::text), 1, 40) AS pay_to
      FROM endpoints e JOIN services s ON s.id = e.service_id WHERE s.status = 'listed'`);
    const written = await client.query(
      `INSERT INTO endpoint_probes (endpoint_id, probed_at, outcome, status_code, latency_ms, challenge_valid,
         x402_version, options, checks, auth_only)
       SELECT a.endpoint_id, now() - k * interval '${PROBE_EVERY_HOURS} hours' - random() * interval '10 minutes',
         CASE a.draw WHEN 0 THEN 'network_error' WHEN 1 THEN 'http_error' ELSE 'challenge' END,
         CASE a.draw WHEN 0 THEN NULL WHEN 1 THEN 404 ELSE 402 END,
         CASE a.draw WHEN 0 THEN NULL ELSE 30 + power(random(), 4) * 2000 END,
         a.draw > 1, CASE WHEN a.draw > 1 THEN 2 END,
         CASE WHEN a.draw > 1 THEN jsonb_build_array($2::jsonb || jsonb_build_object('pay_to', a.pay_to)) END,
         CASE WHEN a.draw > 1 THEN $3::jsonb END, false
       FROM answers a, generate_series(0, $1::int - 1) AS k`,
      [probesPerEndpoint, JSON.stringify(option), JSON.stringify(probe.checks)],
    );
    await client.query(
      `INSERT INTO payment_options (id, endpoint_id, origin, position, scheme, network, network_name, asset,
         asset_symbol, amount_atomic, price_usdc, pay_to, max_timeout_seconds, warnings, payable, observed_at, updated_at)
       SELECT gen_random_uuid(), a.endpoint_id, 'probe', 0, $1, $2, $3, $4, $5, $6::numeric, $7::numeric, a.pay_to,
         $8, '{}', $9, now(), now()
       FROM answers a WHERE a.draw > 1`,
      [
        option.scheme,
        option.network,
        option.network_name,
        option.asset,
        option.asset_symbol,
        option.amount_atomic,
        option.price_usdc,
        option.max_timeout_seconds,
        option.payable,
      ],
    );
    await client.query("VACUUM ANALYZE");
    return written.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** The benchmark, run in this process on the heap it has. */
async function measureTrustRefresh(endpoints: number, probesPerEndpoint: number): Promise<string> {
  const database = await benchDatabase();
  try {
    const services = Math.ceil(endpoints / ENDPOINTS_PER_SERVICE / LISTED_SHARE);
    await generateCatalogue(database.url, {
      services,
      endpointsPerService: ENDPOINTS_PER_SERVICE,
      historyPerService: 0,
    });
    const probes = await writeProbes(database.url, probesPerEndpoint, await realProbe());
    const settings = trustSettingsFromConfig(loadConfig({}));
    const rows: Array<Array<string | number>> = [];
    let listed = 0;
    for (const run of ["first, from the generated verdicts", "again, after a sweep that changed nothing"]) {
      collectGarbage();
      const loadBefore = os.loadavg()[0] ?? 0;
      const cpuBefore = process.cpuUsage();
      const postgresBefore = descendantCpuSeconds(process.pid, []);
      const started = performance.now();
      const { result, rssMb, heapMb } = await peakMemoryGrowthMb(() =>
        refreshTrust(database.db, settings, benchLogger),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const postgresAfter = descendantCpuSeconds(process.pid, []);
      listed = result.endpoints;
      rows.push([
        run,
        result.endpoints,
        result.endpointChanges,
        result.serviceChanges,
        seconds.toFixed(1),
        ((cpu.user + cpu.system) / 1e6).toFixed(1),
        postgresBefore === null || postgresAfter === null ? "–" : (postgresAfter - postgresBefore).toFixed(1),
        Math.round(rssMb),
        Math.round(heapMb),
        `${loadBefore.toFixed(1)} → ${(os.loadavg()[0] ?? 0).toFixed(1)}`,
      ]);
    }
    const markdown = [
      "## Trust verdicts recomputed",
      "",
      markdownTable(
        [
          "run",
          "endpoints",
          "endpoint health changes",
          "service health changes",
          "seconds",
          "Node CPU s",
          "Postgres CPU s",
          "peak RSS growth MB",
          "peak heap growth MB",
          "load before → after",
        ],
        rows,
      ),
      "",
      `${listed.toLocaleString("en")} listed endpoints of ${services.toLocaleString("en")} services, ` +
        `${probes.toLocaleString("en")} probes (${probesPerEndpoint} an endpoint, one every ${PROBE_EVERY_HOURS} hours). ` +
        `Machine: ${os.cpus().length} CPUs shared with Postgres.`,
      `Command: \`node --import tsx bench/trust-refresh.ts ${endpoints} ${probesPerEndpoint}\`, measured in a process ` +
        `started as \`node ${heapFlags(process.execArgv).join(" ")}\` (npm run worker's heap; the sweep runs in workers).`,
    ].join("\n");
    return await writeBenchResult("trust-refresh", markdown);
  } finally {
    await database.close();
  }
}

/** The benchmark in a process of its own, started with `npm run worker`'s heap flags; resolves with its table. */
export function runTrustRefreshBenchmark(endpoints = 50_000, probesPerEndpoint = 12): Promise<string> {
  return measureWithHeapOf("worker", "bench/trust-refresh.ts", [
    String(endpoints),
    String(probesPerEndpoint),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const endpoints = Number(process.argv[2] ?? 50_000);
  const probes = Number(process.argv[3] ?? 12);
  console.log(
    MEASURING_HERE
      ? await measureTrustRefresh(endpoints, probes)
      : await runTrustRefreshBenchmark(endpoints, probes),
  );
}
