// Events through the outbox to one webhook receiver on loopback: throughput, and latency from a
// change's commit to the receiver's receipt at a fixed offered rate.
// Standalone: `node --import tsx bench/events.ts [throughput events] [offered events/s] [seconds]`.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { ensureOrganisation } from "../src/accounts/organisations";
import { createPrismaClient, type Database } from "../src/db/prisma-client";
import { emitEvents, type NewEvent } from "../src/events/emit";
import { SecretKeyRing } from "../src/webhooks/secret-keys";
import { DELIVERY_CONCURRENCY } from "../src/webhooks/settings";
import { createWebhookEndpoint } from "../src/webhooks/webhook-endpoints";
import { descendantCpuSeconds, processCpuSeconds } from "./process-cpu";
import { benchDatabase, markdownTable, startHelperProcess } from "./support";

const SERVICE_ID = "00000000-0000-4000-8000-000000000001";
/** Events per transaction in the throughput run: a crawl writes its changes in batches like this. */
const BATCH = 100;
/** Transactions the paced runs may have open at once. */
const IN_FLIGHT = 32;
/**
 * Events per transaction in the second paced run: real changes come in crawl batches, so an
 * offered rate is also measured as small transactions (the 1-per-transaction run stays, as the
 * commit rate this disk allows).
 */
const SMALL_BATCH = 10;

const now = () => performance.timeOrigin + performance.now();

/** Event number n as the receiver reads it back (data.service.name). */
function event(n: number): NewEvent {
  return {
    type: "service.listed",
    serviceId: SERVICE_ID,
    data: {
      service: { id: SERVICE_ID, name: `e${n}`, source: "directory", detail_url: "https://d.example/" },
    },
  };
}

interface Report {
  received: [number, number][];
  duplicates: number;
  unverified: number;
}

async function report(receiverUrl: string): Promise<Report> {
  const response = await fetch(new URL("/report", receiverUrl));
  return (await response.json()) as Report;
}

/** Polls the receiver until it has `count` events (or gives up after `timeoutMs`). */
async function receivedAll(receiverUrl: string, count: number, timeoutMs: number): Promise<Report> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await report(receiverUrl);
    if (got.received.length >= count || Date.now() > deadline) return got;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `npm run worker` against the benchmark's database, delivering only (no probes). */
async function startWorker(databaseUrl: string, secretKey: Buffer): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "jobs/worker.ts"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      DATABASE_URL: databaseUrl,
      WEBHOOK_SECRET_KEY: secretKey.toString("base64"),
      PROBE_ENABLED: "false",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes('"worker ready"')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return child;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface RunResult {
  run: string;
  events: number;
  /** Events committed per second (the outbox's write side). */
  committedPerSecond: number;
  /** Events received per second, first commit to last receipt. */
  deliveredPerSecond: number;
  latencies: number[];
  missing: number;
  duplicates: number;
  unverified: number;
  /** CPU seconds each process used during the run (null where /proc is missing). */
  cpu: CpuSeconds;
}

interface CpuSeconds {
  emitter: number | null;
  worker: number | null;
  receiver: number | null;
  postgres: number | null;
}

/** Where the machine's CPU went: this process, the worker, the receiver and Postgres (all of its processes). */
function cpuNow(workerPid: number, receiverPid: number): CpuSeconds {
  const own = process.cpuUsage();
  return {
    emitter: (own.user + own.system) / 1e6,
    worker: processCpuSeconds(workerPid),
    receiver: processCpuSeconds(receiverPid),
    postgres: descendantCpuSeconds(process.pid, [workerPid, receiverPid]),
  };
}

const cpuSince = (before: CpuSeconds, after: CpuSeconds): CpuSeconds => {
  const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);
  return {
    emitter: minus(after.emitter, before.emitter),
    worker: minus(after.worker, before.worker),
    receiver: minus(after.receiver, before.receiver),
    postgres: minus(after.postgres, before.postgres),
  };
};

async function measure(
  run: string,
  receiverUrl: string,
  cpu: () => CpuSeconds,
  first: number,
  count: number,
  emit: (commitTimes: number[]) => Promise<void>,
): Promise<RunResult> {
  const commitTimes: number[] = new Array(count).fill(Number.NaN);
  const cpuBefore = cpu();
  const started = now();
  await emit(commitTimes);
  const committed = now();
  const got = await receivedAll(receiverUrl, first + count, 300_000);
  const cpuUsed = cpuSince(cpuBefore, cpu());
  const received = new Map(got.received);
  const latencies: number[] = [];
  let last = started;
  for (let i = 0; i < count; i++) {
    const at = received.get(first + i);
    if (at === undefined) continue;
    latencies.push(at - (commitTimes[i] as number));
    last = Math.max(last, at);
  }
  latencies.sort((a, b) => a - b);
  return {
    run,
    events: count,
    committedPerSecond: count / ((committed - started) / 1000),
    deliveredPerSecond: latencies.length / ((last - started) / 1000),
    latencies,
    missing: count - latencies.length,
    duplicates: got.duplicates,
    unverified: got.unverified,
    cpu: cpuUsed,
  };
}

/** As fast as it goes: `count` events in transactions of BATCH. */
function burst(db: Database, first: number, count: number) {
  return async (commitTimes: number[]) => {
    for (let start = 0; start < count; start += BATCH) {
      const size = Math.min(BATCH, count - start);
      const events = Array.from({ length: size }, (_, i) => event(first + start + i));
      await db.$transaction((tx) => emitEvents(tx, events));
      commitTimes.fill(now(), start, start + size);
    }
  };
}

/**
 * `rate` events/s for `count` events in transactions of `perTransaction`, at most IN_FLIGHT open.
 * A transaction starts when its first event is due; each event's latency counts from its own
 * transaction's commit.
 */
function paced(db: Database, first: number, count: number, rate: number, perTransaction: number) {
  return async (commitTimes: number[]) => {
    const start = now();
    const open = new Set<Promise<void>>();
    for (let i = 0; i < count; i += perTransaction) {
      const due = start + (i * 1000) / rate;
      const wait = due - now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      if (open.size >= IN_FLIGHT) await Promise.race(open);
      const size = Math.min(perTransaction, count - i);
      const events = Array.from({ length: size }, (_, j) => event(first + i + j));
      const task: Promise<void> = db
        .$transaction((tx) => emitEvents(tx, events))
        .then(() => {
          commitTimes.fill(now(), i, i + size);
        })
        .finally(() => open.delete(task));
      open.add(task);
    }
    await Promise.all(open);
  };
}

export async function runEventsBenchmark(
  throughputEvents = 5_000,
  rate = 1_000,
  seconds = 10,
): Promise<string> {
  const loadBefore = os.loadavg()[0] ?? 0;
  const database = await benchDatabase();
  const db = createPrismaClient(database.url, IN_FLIGHT + 2);
  let receiver: ChildProcess | null = null;
  let worker: ChildProcess | null = null;
  try {
    const organisation = await ensureOrganisation(db, "bench");
    const secretKey = randomBytes(32);
    const outcome = await createWebhookEndpoint(
      db,
      new SecretKeyRing(secretKey),
      { organisationId: organisation.id, environment: "live" },
      { url: "http://127.0.0.1:1/", description: "bench", enabledEvents: ["*"], redactMetadata: false },
    );
    if (!("created" in outcome)) throw new Error("the free plan allows one webhook endpoint");
    const { endpoint, secret } = outcome.created;
    const started = await startHelperProcess<{ url: string }>("bench/webhook-receiver.ts", [secret]);
    receiver = started.child;
    const receiverUrl = started.info.url;
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: receiverUrl } });
    worker = await startWorker(database.url, secretKey);

    const offered = rate * seconds;
    const { pid: workerPid = 0 } = worker;
    const { pid: receiverPid = 0 } = receiver;
    const cpu = () => cpuNow(workerPid, receiverPid);
    const results = [
      await measure(
        `burst, ${BATCH} events per transaction`,
        receiverUrl,
        cpu,
        0,
        throughputEvents,
        burst(db, 0, throughputEvents),
      ),
      await measure(
        `${rate} events/s offered, 1 per transaction`,
        receiverUrl,
        cpu,
        throughputEvents,
        offered,
        paced(db, throughputEvents, offered, rate, 1),
      ),
      await measure(
        `${rate} events/s offered, ${SMALL_BATCH} per transaction`,
        receiverUrl,
        cpu,
        throughputEvents + offered,
        offered,
        paced(db, throughputEvents + offered, offered, rate, SMALL_BATCH),
      ),
    ];
    const ms = (value: number) => value.toFixed(1);
    const table = markdownTable(
      [
        "run",
        "events",
        "committed/s",
        "delivered/s",
        "latency p50 ms",
        "p99 ms",
        "max ms",
        "missing",
        "duplicates",
        "unverified",
        "CPU s: emitter / worker / receiver / Postgres",
      ],
      results.map((r) => [
        r.run,
        r.events,
        r.committedPerSecond.toFixed(0),
        r.deliveredPerSecond.toFixed(0),
        ms(percentile(r.latencies, 50)),
        ms(percentile(r.latencies, 99)),
        ms(r.latencies.at(-1) ?? Number.NaN),
        r.missing,
        r.duplicates,
        r.unverified,
        [r.cpu.emitter, r.cpu.worker, r.cpu.receiver, r.cpu.postgres]
          .map((seconds) => (seconds === null ? "–" : seconds.toFixed(1)))
          .join(" / "),
      ]),
    );
    const markdown = [
      "## Events benchmark",
      "",
      "Events written through the outbox (`emitEvents` in the change's transaction) by this process, delivered by one " +
        `\`npm run worker\` process (default settings: ${DELIVERY_CONCURRENCY} deliveries in flight) to one webhook endpoint, a receiver in ` +
        "a process of its own on 127.0.0.1 that verifies every delivery with `standardwebhooks` and answers 204.",
      "Delivered/s: events received per second from the first commit to the last receipt. Latency: from the " +
        "moment the emitting transaction's commit returned to the receiver's receipt (both processes read the same clock).",
      `Embedded Postgres 17, durable settings; ${os.cpus().length} CPUs shared by Postgres, the emitter, the worker ` +
        `and the receiver; 1-minute load average ${loadBefore.toFixed(2)} before the run and ` +
        `${(os.loadavg()[0] ?? 0).toFixed(2)} after (other processes count too).`,
      `Command: \`node --import tsx bench/events.ts ${throughputEvents} ${rate} ${seconds}\` (or \`npm run bench\`).`,
      "",
      table,
    ].join("\n");
    const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
    await mkdir(resultsDir, { recursive: true });
    await writeFile(path.join(resultsDir, "events.md"), `${markdown}\n`);
    return markdown;
  } finally {
    receiver?.kill();
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
    await db.$disconnect();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [throughput, rate, seconds] = process.argv.slice(2).map(Number);
  console.log(await runEventsBenchmark(throughput || undefined, rate || undefined, seconds || undefined));
}
