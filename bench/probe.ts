// Probe benchmark: x402 fixture endpoints on several loopback hosts in their own
// process; the real path (sweep → pg-boss queue in an embedded Postgres → worker slots → unpaid
// request → challenge parse → recorded probe) at the default politeness settings and at full
// speed, next to bare probes without queue or database (the limit).
// Standalone: `node --import tsx bench/probe.ts [polite endpoints] [full-speed endpoints] [hosts]`.
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config/config";
import type { Database } from "../src/db/prisma-client";
import { probeEndpoint } from "../src/probe/probe-endpoint";
import { systemResolver } from "../src/probe/resolve-target";
import { type ProbeSettings, probeSettingsFromConfig } from "../src/probe/settings";
import { AddressPolicy } from "../src/probe/ssrf-guard";
import { startProbing } from "../src/probe/start-probing";
import { descendantCpuSeconds, processCpuSeconds } from "./process-cpu";
import { type BenchDatabase, benchDatabase, benchLogger, markdownTable, startHelperProcess } from "./support";

interface Run {
  run: string;
  endpoints: number;
  concurrency: number;
  perHostPerMinute: number;
  seconds: number;
  /** First to last probe, leaving out the wait for the sweep job to be picked up. */
  probeWindowSeconds: number;
  validChallenges: number;
  nodeCpuSeconds: number;
  postgresCpuSeconds: number | null;
  fixturesCpuSeconds: number | null;
  peakRssMb: number;
}

// --- Catalogue and measurements. ---

/** Services of 10 endpoints each; endpoint i lives on host i mod hosts (GET and POST alternate). */
async function addEndpoints(db: Database, origins: string[], from: number, to: number): Promise<void> {
  const source = await db.source.upsert({
    where: { kind_baseUrl: { kind: "html_directory", baseUrl: "http://bench.example/" } },
    create: { kind: "html_directory", baseUrl: "http://bench.example/" },
    update: {},
  });
  const now = new Date();
  for (let start = from; start < to; start += 10) {
    const id = randomUUID();
    await db.service.create({
      data: {
        id,
        sourceId: source.id,
        detailUrl: `http://bench.example/s/${start}`,
        name: `Bench service ${start}`,
        firstSeenAt: now,
        lastSeenAt: now,
        endpoints: {
          create: Array.from({ length: Math.min(10, to - start) }, (_, k) => {
            const i = start + k;
            return {
              position: k,
              method: i % 4 === 3 ? "POST" : "GET",
              url: `${origins[i % origins.length]}/e/${i}`,
            };
          }),
        },
      },
    });
  }
}

/** Probe settings of the benchmarks: the config defaults, loopback allowed, no scheduled sweep. */
export function benchProbeSettings(overrides: Partial<ProbeSettings>): ProbeSettings {
  return {
    ...probeSettingsFromConfig(loadConfig({})),
    allowedNetworks: ["127.0.0.0/8"],
    // Never fires during the benchmark; it asks for its sweeps itself.
    schedule: "0 0 1 1 *",
    ...overrides,
  };
}

async function sampleRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const result = await work();
    return { result, peakRssMb: Math.max(peak, process.memoryUsage().rss) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** Probes recorded so far, and probe jobs not yet finished. */
export async function queued(database: BenchDatabase): Promise<{ probes: number; unfinished: number }> {
  const [row] = await database.db.$queryRaw<{ probes: number; unfinished: number }[]>`
    SELECT (SELECT count(*)::int FROM endpoint_probes) AS probes,
      (SELECT count(*)::int FROM pgboss.job WHERE name = 'probe-endpoint' AND state < 'completed') AS unfinished`;
  return row ?? { probes: 0, unfinished: -1 };
}

async function measure(
  label: string,
  database: BenchDatabase,
  fixturesPid: number,
  endpoints: number,
  settings: ProbeSettings,
): Promise<Run> {
  await database.db.endpointProbe.deleteMany();
  const probing = await startProbing({
    db: database.db,
    databaseUrl: database.url,
    settings,
    logger: benchLogger,
    runWorker: true,
  });
  const cpu = process.cpuUsage();
  const postgresBefore = descendantCpuSeconds(process.pid, [fixturesPid]);
  const fixturesBefore = processCpuSeconds(fixturesPid);
  const started = performance.now();
  const { peakRssMb } = await sampleRss(async () => {
    await probing.requestSweep();
    for (;;) {
      const { probes, unfinished } = await queued(database);
      if (probes >= endpoints && unfinished === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const postgresAfter = descendantCpuSeconds(process.pid, [fixturesPid]);
  const fixturesAfter = processCpuSeconds(fixturesPid);
  await probing.stop();
  const [window] = await database.db.$queryRaw<{ seconds: number; valid: number }[]>`
    SELECT extract(epoch FROM max(probed_at) - min(probed_at))::float8 AS seconds,
      count(*) FILTER (WHERE challenge_valid)::int AS valid
    FROM endpoint_probes`;
  return {
    run: label,
    endpoints,
    concurrency: settings.concurrency,
    perHostPerMinute: settings.perHostPerMinute,
    seconds,
    probeWindowSeconds: window?.seconds ?? 0,
    validChallenges: window?.valid ?? 0,
    nodeCpuSeconds: (used.user + used.system) / 1e6,
    postgresCpuSeconds:
      postgresBefore === null || postgresAfter === null ? null : postgresAfter - postgresBefore,
    fixturesCpuSeconds:
      fixturesBefore === null || fixturesAfter === null ? null : fixturesAfter - fixturesBefore,
    peakRssMb,
  };
}

/** The limit: the same requests with the same concurrency, without queue or database. */
async function bareProbes(
  origins: string[],
  endpoints: number,
  fixturesPid: number,
  concurrency: number,
): Promise<Run> {
  const settings = benchProbeSettings({ concurrency });
  const deps = { settings, policy: new AddressPolicy(settings.allowedNetworks), resolve: systemResolver };
  let next = 0;
  let valid = 0;
  const cpu = process.cpuUsage();
  const fixturesBefore = processCpuSeconds(fixturesPid);
  const started = performance.now();
  const { peakRssMb } = await sampleRss(() =>
    Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < endpoints; i = next++) {
          const method = i % 4 === 3 ? "POST" : "GET";
          const result = await probeEndpoint({ method, url: `${origins[i % origins.length]}/e/${i}` }, deps);
          if (result.challengeValid) valid += 1;
        }
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const fixturesAfter = processCpuSeconds(fixturesPid);
  return {
    run: "bare probes, no queue or database (limit)",
    endpoints,
    concurrency,
    perHostPerMinute: 0,
    seconds,
    probeWindowSeconds: seconds,
    validChallenges: valid,
    nodeCpuSeconds: (used.user + used.system) / 1e6,
    postgresCpuSeconds: 0,
    fixturesCpuSeconds:
      fixturesBefore === null || fixturesAfter === null ? null : fixturesAfter - fixturesBefore,
    peakRssMb,
  };
}

const fixed = (value: number | null, digits = 1) => (value === null ? "n/a" : value.toFixed(digits));

export async function runProbeBenchmark(
  politeEndpoints = 160,
  fullEndpoints = 3000,
  hosts = 8,
): Promise<string> {
  const { info, child } = await startHelperProcess<{ origins: string[] }>("bench/probe-fixtures.ts", [
    String(hosts),
  ]);
  const fixturesPid = child.pid ?? -1;
  const database = await benchDatabase();
  try {
    const defaults = benchProbeSettings({});
    const fullSpeed = benchProbeSettings({ concurrency: 64, perHostPerMinute: 1_000_000 });
    const rows: Run[] = [];
    await addEndpoints(database.db, info.origins, 0, politeEndpoints);
    rows.push(
      await measure("queue + workers, default politeness", database, fixturesPid, politeEndpoints, defaults),
    );
    await addEndpoints(database.db, info.origins, politeEndpoints, fullEndpoints);
    rows.push(await measure("queue + workers, full speed", database, fixturesPid, fullEndpoints, fullSpeed));
    rows.push(await bareProbes(info.origins, fullEndpoints, fixturesPid, fullSpeed.concurrency));

    const table = markdownTable(
      [
        "run",
        "endpoints",
        "concurrency",
        "per host /min",
        "seconds",
        "endpoints/s",
        "endpoints/s (probe window)",
        "valid challenges",
        "Node CPU s",
        "Postgres CPU s",
        "fixtures CPU s",
        "peak RSS MB",
      ],
      rows.map((r) => [
        r.run,
        r.endpoints,
        r.concurrency,
        r.perHostPerMinute === 0 ? "–" : r.perHostPerMinute,
        r.seconds.toFixed(1),
        (r.endpoints / r.seconds).toFixed(1),
        r.probeWindowSeconds > 0 ? (r.endpoints / r.probeWindowSeconds).toFixed(1) : "–",
        r.validChallenges,
        fixed(r.nodeCpuSeconds),
        fixed(r.postgresCpuSeconds),
        fixed(r.fixturesCpuSeconds),
        r.peakRssMb.toFixed(0),
      ]),
    );
    const politeCeiling = (hosts * defaults.perHostPerMinute) / 60;
    return [
      "## Probe benchmark",
      "",
      `Fixture x402 endpoints on ${hosts} loopback hosts (127.0.0.1–127.0.0.${hosts}) in a separate process; half answer a v1 body, half a v2 header; every fourth is probed with POST.`,
      `One worker process (this one: sweep, pg-boss queue in an embedded Postgres 17 with durable settings, ${os.cpus().length} CPUs, Node ${process.version}).`,
      `Default politeness = the config defaults (PROBE_CONCURRENCY ${defaults.concurrency}, PROBE_PER_HOST_PER_MINUTE ${defaults.perHostPerMinute}): at most ${politeCeiling.toFixed(0)} endpoints/s over ${hosts} hosts, by design.`,
      "Seconds run from asking for a sweep to the last probe recorded (includes up to one 2 s poll before the sweep job is picked up); the probe window runs from the first to the last probe.",
      "Command: `node --import tsx bench/probe.ts`",
      "",
      table,
    ].join("\n");
  } finally {
    child.kill();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [polite, full, hosts] = process.argv.slice(2).map(Number);
  const markdown = await runProbeBenchmark(polite || undefined, full || undefined, hosts || undefined);
  console.log(markdown);
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, "probe.md"), `${markdown}\n`);
}
