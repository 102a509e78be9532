import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearer, call, issueKey, type Replica, startReplica } from "../../support/accounts";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** CSV rows a day: plans sell them per organisation and environment; anonymous callers get the Free allowance. */
describe("the daily CSV export allowance", () => {
  let database: TestDatabase;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedServices(database.db, [{ name: "Alpha" }, { name: "Beta" }, { name: "Gamma" }]);
  });
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    replicas = [];
    await database.db.rateLimitWindow.deleteMany();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function twoReplicas(anonymousCsvRowsPerDay = 1_000_000): Promise<[Replica, Replica]> {
    replicas = [
      await startReplica(database, { accountSettings: { anonymousCsvRowsPerDay } }),
      await startReplica(database, { accountSettings: { anonymousCsvRowsPerDay } }),
    ];
    return replicas as [Replica, Replica];
  }

  /** Rows in a CSV answer, header excluded. */
  const rowsOf = (text: string) => text.trim().split("\n").length - 1;

  it("when an anonymous address has exported its allowance, then its next export on any replica is refused with 429 until the window ends", async () => {
    const [a, b] = await twoReplicas(4);
    const first = await call(a.url, "/v1/services.csv");
    expect(first.status).toBe(200);
    expect(rowsOf(first.text)).toBe(3);
    // Checked when an export starts, never cut off: 3 of 4 used, so this one sends all 3.
    const second = await call(b.url, "/v1/services.csv");
    expect(second.status).toBe(200);
    expect(rowsOf(second.text)).toBe(3);
    await expect.poll(async () => (await call(a.url, "/v1/services.csv")).status).toBe(429);
    const refused = await call(b.url, "/v1/history.csv");
    expect(refused.status).toBe(429);
    // 6 rows, or 9 if the poll's first export started before the second's rows were counted.
    expect(refused.body.message).toMatch(
      /^CSV export allowance reached: 4 rows a day, [69] exported in this 24-hour window; retry after/,
    );
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(86_000);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    // Only exports are counted against it.
    expect((await call(a.url, "/v1/services")).status).toBe(200);
  });

  it("when a key's plan allows 2 rows a day, then its environment is refused after that while the other environment and anonymous callers export", async () => {
    const [a, b] = await twoReplicas();
    await database.db.plan.create({ data: { id: "two-rows", requestsPerMinute: 1_000, csvRowsPerDay: 2 } });
    await database.db.organisation.create({ data: { name: "analyst", planId: "two-rows" } });
    const live = await issueKey(database.db, "analyst", "live", ["catalogue:export"]);
    const otherLiveKey = await issueKey(database.db, "analyst", "live", ["catalogue:export"]);
    const test = await issueKey(database.db, "analyst", "test", ["catalogue:export"]);
    expect((await call(a.url, "/v1/services.csv", { headers: bearer(live.key) })).status).toBe(200);
    // The allowance is the organisation's environment's, whichever key and replica asks.
    await expect
      .poll(async () => (await call(b.url, "/v1/services.csv", { headers: bearer(otherLiveKey.key) })).status)
      .toBe(429);
    expect((await call(a.url, "/v1/services.csv", { headers: bearer(test.key) })).status).toBe(200);
    expect((await call(b.url, "/v1/services.csv")).status).toBe(200);
  });
});
