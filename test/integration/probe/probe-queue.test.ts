import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBoss, ensureQueues, PROBE_QUEUE, SWEEP_QUEUE } from "../../../src/probe/queue";
import { HostRateLimiter } from "../../../src/probe/rate-limit";
import { enqueueProbes, hostKey, requestSweep } from "../../../src/probe/schedule";
import { startProbing } from "../../../src/probe/start-probing";
import { startProbeWorkers } from "../../../src/probe/worker";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { recordingLogger, testLogger } from "../../support/logger";
import { TEST_USER_AGENT, testProbeSettings, testWorkerDeps } from "../../support/probe";
import { startEntryPoint } from "../../support/processes";
import { v1ChallengeBody } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";

const ENDPOINTS = 40;

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the probe queue shared by several workers", () => {
  let database: TestDatabase;
  let sql: pg.Client;
  const site = new X402Fixture();

  const probesPerEndpoint = async () =>
    (
      await sql.query<{ n: number }>(
        `SELECT count(p.id)::int AS n FROM endpoints e LEFT JOIN endpoint_probes p ON p.endpoint_id = e.id
         GROUP BY e.id ORDER BY e.id`,
      )
    ).rows.map((r) => r.n);
  const jobsNotFinished = async () =>
    (
      await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state < 'completed'`,
        [PROBE_QUEUE],
      )
    ).rows[0]?.n ?? -1;
  const jobStates = async () =>
    (
      await sql.query<{ state: string }>("SELECT state::text FROM pgboss.job WHERE name = $1", [PROBE_QUEUE])
    ).rows.map((row) => row.state);
  const allProbedOnceAndIdle = async () =>
    (await probesPerEndpoint()).every((n) => n >= 1) && (await jobsNotFinished()) === 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    await site.start();
    const paths = Array.from({ length: ENDPOINTS }, (_, i) => `/e/${i}`);
    // Slow enough that one worker alone would still be busy when the other polls.
    for (const path of paths) site.set(path, { status: 402, body: v1ChallengeBody(), delayMs: 250 });
    await seedServices(
      database.db,
      Array.from({ length: 4 }, (_, s) => ({
        name: `Service ${s}`,
        endpoints: paths.slice(s * 10, s * 10 + 10).map((path) => ({ method: "GET", url: site.url(path) })),
      })),
    );
  });
  afterAll(async () => {
    await sql.end();
    await site.stop();
    await database.drop();
  });
  beforeEach(async () => {
    await database.db.endpointProbe.deleteMany();
    // The pgboss schema exists once the first test has started probing.
    await sql.query("DELETE FROM pgboss.job WHERE name = $1", [PROBE_QUEUE]).catch(() => undefined);
    site.requests.length = 0;
  });

  it("when two workers share the queue and one sweep runs, then every endpoint is probed exactly once by the two together", async () => {
    const settings = testProbeSettings({ concurrency: 3 });
    const deps = {
      db: database.db,
      databaseUrl: database.url,
      settings,
      logger: testLogger,
      runWorker: true,
    };
    const one = await startProbing(deps);
    const two = await startProbing(deps);
    try {
      await one.requestSweep();
      await waitFor("every endpoint probed", allProbedOnceAndIdle);
      expect(await probesPerEndpoint()).toEqual(Array(ENDPOINTS).fill(1));
      expect(site.requests).toHaveLength(ENDPOINTS);
      expect(new Set(site.requests.map((r) => r.path)).size).toBe(ENDPOINTS);
      expect(one.counts.probed + two.counts.probed).toBe(ENDPOINTS);
      expect(one.counts.probed).toBeGreaterThan(0);
      expect(two.counts.probed).toBeGreaterThan(0);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  it("when probing stops while probes are in flight, then they finish and are recorded before stop resolves", async () => {
    for (let i = 0; i < ENDPOINTS; i++)
      site.set(`/e/${i}`, { status: 402, body: v1ChallengeBody(), delayMs: 800 });
    const probing = await startProbing({
      db: database.db,
      databaseUrl: database.url,
      settings: testProbeSettings({ concurrency: 2 }),
      logger: testLogger,
      runWorker: true,
    });
    try {
      await probing.requestSweep();
      await waitFor("two probes in flight", async () => site.requests.length >= 2);
    } finally {
      await probing.stop();
      for (let i = 0; i < ENDPOINTS; i++)
        site.set(`/e/${i}`, { status: 402, body: v1ChallengeBody(), delayMs: 250 });
    }
    // Exactly the two probes that were running when stop began: finished, stored and completed.
    expect(site.requests).toHaveLength(2);
    expect(await database.db.endpointProbe.count({ where: { outcome: "challenge" } })).toBe(2);
    const { rows } = await sql.query<{ state: string; n: number }>(
      "SELECT state::text, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state ORDER BY state::text",
      [PROBE_QUEUE],
    );
    expect(rows).toEqual([
      { state: "completed", n: 2 },
      { state: "created", n: ENDPOINTS - 2 },
    ]);
  });

  it("when probing stops while a job waits for its host's turn, then the job goes back to the queue without a warning, and a job that fails otherwise is warned of", async () => {
    const [endpoint] = await database.db.endpoint.findMany({ orderBy: { id: "asc" }, take: 1 });
    if (endpoint === undefined) throw new Error("no endpoint seeded");
    const boss = createBoss(database.url, 2);
    await boss.start();
    const { lines, logger } = recordingLogger();
    const stopping = new AbortController();
    // The host's one turn a minute is taken: the job waits for the next.
    const limiter = new HostRateLimiter(1);
    await limiter.acquire(hostKey(endpoint.url));
    const deps = { ...testWorkerDeps(database.db), limiter, logger, signal: stopping.signal };
    await ensureQueues(boss);
    let workers = startProbeWorkers(boss, deps, 1, 0.1);
    try {
      const enqueuedAt = new Date().toISOString();
      await boss.send(PROBE_QUEUE, { endpointId: endpoint.id, enqueuedAt });
      await waitFor("the job taken", async () => (await jobStates()).includes("active"));
      stopping.abort(new Error("probing is stopping"));
      await waitFor("the job given back", async () => (await jobStates()).includes("retry"));
      expect(site.requests).toHaveLength(0);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      expect(lines.map((line) => line.msg)).toContain("probe job given back: probing is stopping");

      // Not stopping: a job that cannot be served (no such endpoint id) is a warning.
      await workers.stop();
      await sql.query("DELETE FROM pgboss.job WHERE name = $1", [PROBE_QUEUE]);
      workers = startProbeWorkers(boss, { ...deps, signal: new AbortController().signal }, 1, 0.1);
      await boss.send(PROBE_QUEUE, { endpointId: "not-an-id", enqueuedAt });
      await waitFor("the failure warned of", async () => lines.some((line) => line.level === 40));
      expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual(["probe job failed"]);
    } finally {
      await workers.stop();
      await boss.stop({ graceful: false });
    }
  });

  it("when probing starts, then the sweep is scheduled in the database with the configured cron", async () => {
    const probing = await startProbing({
      db: database.db,
      databaseUrl: database.url,
      settings: testProbeSettings({ schedule: "15 */2 * * *" }),
      logger: testLogger,
      runWorker: false,
    });
    await probing.stop();
    const { rows } = await sql.query("SELECT name, cron, timezone FROM pgboss.schedule");
    expect(rows).toEqual([{ name: SWEEP_QUEUE, cron: "15 */2 * * *", timezone: "UTC" }]);
  });

  it("when a sweep runs while the previous sweep's jobs still wait, then no endpoint gets a second job", async () => {
    const boss = createBoss(database.url, 2);
    await boss.start();
    try {
      await ensureQueues(boss);
      // One probe a minute per host: all but the first job of the host wait for later.
      expect(await enqueueProbes(boss, database.db, 1, testLogger)).toBe(ENDPOINTS);
      expect(await enqueueProbes(boss, database.db, 1, testLogger)).toBe(ENDPOINTS);
      const { rows } = await sql.query<{ jobs: number; keys: number; spread: number }>(
        `SELECT count(*)::int AS jobs, count(DISTINCT singleton_key)::int AS keys,
           extract(epoch FROM max(start_after) - min(start_after))::int AS spread
         FROM pgboss.job WHERE name = $1 AND state = 'created'`,
        [PROBE_QUEUE],
      );
      // 40 endpoints on one host (127.0.0.1), one minute apart: 39 minutes from first to last.
      expect(rows[0]).toEqual({ jobs: ENDPOINTS, keys: ENDPOINTS, spread: 39 * 60 });
    } finally {
      await boss.purgeQueue(PROBE_QUEUE);
      await boss.stop({ graceful: false });
    }
  });

  it("when two `npm run worker` processes share the queue, then each endpoint is probed once and SIGTERM stops both cleanly", async () => {
    const env = {
      DATABASE_URL: database.url,
      // Given, so the delivering workers keep no generated key in the working directory.
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      LOG_LEVEL: "debug",
      PROBE_ALLOWED_NETWORKS: "127.0.0.1/32",
      PROBE_PER_HOST_PER_MINUTE: "1000000",
      PROBE_CONCURRENCY: "3",
      PROBE_SCHEDULE: "0 0 1 1 *",
      PROBE_USER_AGENT: TEST_USER_AGENT,
    };
    const workers = [startEntryPoint("jobs/worker.ts", [], env), startEntryPoint("jobs/worker.ts", [], env)];
    try {
      await Promise.all(workers.map((w) => w.waitForLog((l) => l.msg === "worker ready")));
      const boss = createBoss(database.url, 1);
      await boss.start();
      await requestSweep(boss);
      await boss.stop({ graceful: false });
      await waitFor("every endpoint probed", allProbedOnceAndIdle);
      expect(await probesPerEndpoint()).toEqual(Array(ENDPOINTS).fill(1));
      const probedBy = () => workers.map((w) => w.lines.filter((l) => l.msg === "endpoint probed").length);
      // A worker's log line reaches this process a moment after its probe is stored.
      await waitFor("every probe logged", async () => probedBy().reduce((a, b) => a + b) >= ENDPOINTS);
      expect(probedBy()[0]! + probedBy()[1]!).toBe(ENDPOINTS);
      expect(probedBy().every((n) => n > 0)).toBe(true);
      for (const w of workers) w.child.kill("SIGTERM");
      expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    }
  });
});
