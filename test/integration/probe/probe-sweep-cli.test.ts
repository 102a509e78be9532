import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSweepListSchema } from "../../../src/http/schemas/probe-sweeps";
import { listen } from "../../../src/http/server";
import { startProbing } from "../../../src/probe/start-probing";
import { createTestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { TEST_USER_AGENT, testProbeSettings } from "../../support/probe";
import { startEntryPoint } from "../../support/processes";
import { v1ChallengeBody } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";

describe("npm run probe: one sweep from the command line", () => {
  let database: TestDatabase;
  const site = new X402Fixture();

  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/paid/a", { status: 402, body: v1ChallengeBody() });
    site.set("/paid/b", { status: 402, body: v1ChallengeBody() });
    site.set("/free", { status: 200, body: "{}" });
    await seedServices(database.db, [
      {
        name: "Sweep me",
        endpoints: ["/paid/a", "/paid/b", "/free"].map((path) => ({ method: "GET", url: site.url(path) })),
      },
    ]);
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });

  const env = () => ({
    DATABASE_URL: database.url,
    PROBE_ALLOWED_NETWORKS: "127.0.0.1/32",
    PROBE_PER_HOST_PER_MINUTE: "1000000",
    PROBE_USER_AGENT: TEST_USER_AGENT,
  });

  it("when run, then every endpoint is probed and recorded, stdout is the summary line alone, and it exits 0", async () => {
    const sweep = startEntryPoint("jobs/probe.ts", [], { ...env(), LOG_LEVEL: "info" });
    expect(await sweep.exited).toBe(0);
    expect(sweep.lines.map((l) => l.msg)).toEqual([expect.any(String)]);
    expect(sweep.lines[0]?.msg).toMatch(
      /^probe sweep finished in \d+\.\d s: 3 of 3 endpoints probed \(2 challenge; 1 no_challenge\)$/,
    );
    expect(sweep.stderr()).toContain("probe sweep of 3 endpoints started");
    expect(await database.db.endpointProbe.count()).toBe(3);
    expect(site.requests).toHaveLength(3);
  });

  it("when sweeps ran from the command line and on the schedule, then /v1/probe-sweeps lists both with their own outcomes", async () => {
    // The first test's manual sweep is recorded; now a scheduled one, probed by a queue worker.
    site.set("/free", { status: 503, body: "busy" });
    const probing = await startProbing({
      db: database.db,
      databaseUrl: database.url,
      settings: testProbeSettings(),
      logger: testLogger,
      runWorker: true,
    });
    try {
      await probing.requestSweep();
      for (let waited = 0; (await database.db.endpointProbe.count()) < 6; waited += 100) {
        if (waited > 30_000) throw new Error("the scheduled sweep's probes did not land");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await probing.stop();
    }
    const api = createTestApp(database);
    const server = await listen(api.app, 0, "127.0.0.1");
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/v1/probe-sweeps`);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(probeSweepListSchema.safeParse(body).success).toBe(true);
      expect(body).toMatchObject({
        total: 2,
        items: [
          {
            trigger: "schedule",
            finished_at: null,
            endpoints: 3,
            probed: 3,
            outcomes: { challenge: 2, http_error: 1 },
          },
          {
            trigger: "manual",
            finished_at: expect.any(String),
            endpoints: 3,
            probed: 3,
            outcomes: { challenge: 2, no_challenge: 1 },
          },
        ],
      });
    } finally {
      await server.close();
      await api.close();
    }
  });

  it("when probing is disabled, then it exits 1 saying so", async () => {
    const sweep = startEntryPoint("jobs/probe.ts", [], { ...env(), PROBE_ENABLED: "false" });
    expect(await sweep.exited).toBe(1);
    expect(sweep.stderr()).toContain("PROBE_ENABLED is false: no probe sweep");
    expect(sweep.lines).toEqual([]);
  });

  it("when endpoints fail and --json is given, then stdout is the summary as JSON, with each failure's reason counted", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await seedServices(database.db, [
      { name: "Gone", endpoints: [{ method: "GET", url: `http://127.0.0.1:${port}/paid` }] },
    ]);
    const sweep = startEntryPoint("jobs/probe.ts", ["--json"], env());
    expect(await sweep.exited).toBe(0);
    expect(sweep.lines).toHaveLength(1);
    expect(sweep.lines[0]).toMatchObject({
      endpoints: 4,
      probed: 4,
      outcomes: { network_error: 1 },
      reasons: { network_error: [{ reason: "connection refused (ECONNREFUSED)", count: 1 }] },
      aborted: false,
    });
  });
});
