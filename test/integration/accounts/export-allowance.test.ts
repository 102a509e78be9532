import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AccountSettings } from "../../../src/accounts/accounts";
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

  async function twoReplicas(
    anonymousCsvRowsPerDay = 1_000_000,
    caps: Partial<AccountSettings> = {},
  ): Promise<[Replica, Replica]> {
    const accountSettings = { anonymousCsvRowsPerDay, ...caps };
    replicas = [
      await startReplica(database, { accountSettings }),
      await startReplica(database, { accountSettings }),
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
    expect((await call(a.url, "/v1/services.csv")).status).toBe(429);
    const refused = await call(b.url, "/v1/history.csv");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^CSV export allowance reached: 4 rows a day, 6 exported in this 24-hour window; retry after/,
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
  it("when ten anonymous exports race on two replicas against a 4-row allowance, then only the one crossing it goes past", async () => {
    const [a, b] = await twoReplicas(4);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call((i % 2 === 0 ? a : b).url, "/v1/services.csv")),
    );
    const sent = answers.filter((answer) => answer.status === 200);
    // 3 rows reserved from 0, then 3 from 3 (under 4, so sent whole); every later one is refused.
    expect(sent.map((answer) => rowsOf(answer.text))).toEqual([3, 3]);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^CSV export allowance reached: 4 rows a day/);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await a.accounts.exports.used("ip:127.0.0.1")).rows).toBe(6);
  });

  it("when a caller or the process has its most exports under way, then another is refused with 429 and Retry-After until one ends", async () => {
    const [a] = await twoReplicas(1_000_000, { exportsPerCaller: 1, exportsPerProcess: 2 });
    const slots = a.accounts.exportSlots;
    const mine = slots.take("ip:127.0.0.1");
    const busy = await call(a.url, "/v1/services.csv");
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(busy.body).toEqual({
      statusCode: 429,
      message: "Too many CSV exports at once: 1 per caller; retry after the Retry-After seconds",
      error: "Too Many Requests",
    });
    if (typeof mine !== "string") mine.release();
    expect((await call(a.url, "/v1/services.csv")).status).toBe(200);
    const others = [slots.take("ip:192.0.2.1"), slots.take("ip:192.0.2.2")];
    const full = await call(a.url, "/v1/history.csv");
    expect(full.status).toBe(429);
    expect(full.body.message).toBe(
      "Too many CSV exports at once on this server (2); retry after the Retry-After seconds",
    );
    for (const slot of others) if (typeof slot !== "string") slot.release();
    expect((await call(a.url, "/v1/history.csv")).status).toBe(200);
  });
});
