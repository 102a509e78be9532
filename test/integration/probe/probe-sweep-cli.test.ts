import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { TEST_USER_AGENT } from "../../support/probe";
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

  it("when run, then every endpoint is probed and recorded, the summary counts each outcome, and it exits 0", async () => {
    const sweep = startEntryPoint("jobs/probe.ts", [], env());
    expect(await sweep.exited).toBe(0);
    const summary = sweep.lines.find((l) => String(l.msg).startsWith("probe sweep finished"));
    expect(summary?.msg).toMatch(
      /^probe sweep finished in \d+\.\d s: 3 of 3 endpoints probed \(2 challenge, 1 no_challenge\)$/,
    );
    expect(summary?.summary).toMatchObject({
      endpoints: 3,
      probed: 3,
      outcomes: { challenge: 2, no_challenge: 1 },
    });
    expect(await database.db.endpointProbe.count()).toBe(3);
    expect(site.requests).toHaveLength(3);
  });

  it("when probing is disabled, then it exits 1 saying so", async () => {
    const sweep = startEntryPoint("jobs/probe.ts", [], { ...env(), PROBE_ENABLED: "false" });
    expect(await sweep.exited).toBe(1);
    expect(sweep.lines.some((l) => l.msg === "PROBE_ENABLED is false: no probe sweep")).toBe(true);
  });
});
