import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOnce } from "../../../src/probe/sweep-once";
import { refreshTrust } from "../../../src/trust/refresh";
import type { Check } from "../../../src/trust/types";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { testProbeSettings } from "../../support/probe";
import { v1ChallengeBody } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";
import { v1Entry } from "../../unit/payments/fixtures";

/**
 * The trust recompute judges a few services at a time (here two), so its memory holds one batch:
 * every listed endpoint still gets its verdicts, a category's median price is the whole
 * category's (not a batch's), and each health change is one event.
 */
const PRICES: Record<string, string> = {
  "/a": "10000",
  "/b": "20000",
  "/c": "30000",
  "/d": "40000",
  // 0.03 USDC is the category's lower median: 3.00 is 100× it, a decoy price.
  "/decoy": "3000000",
};
const settings = testProbeSettings();
const batched = { ...settings, trust: { ...settings.trust, serviceBatch: 2 } };

describe("trust verdicts recomputed in batches of services", () => {
  let database: TestDatabase;
  let origin: X402Fixture;

  beforeAll(async () => {
    database = await createTestDatabase();
    origin = await new X402Fixture().start();
    for (const [path, price] of Object.entries(PRICES))
      origin.set(path, { status: 402, body: v1ChallengeBody([v1Entry({ maxAmountRequired: price })]) });
    await seedServices(database.db, [
      ...Object.keys(PRICES).map((path) => ({
        name: `weather ${path}`,
        category: "weather",
        endpoints: [{ method: "GET", url: origin.url(path) }],
      })),
      {
        name: "gone",
        category: "weather",
        status: "delisted" as const,
        endpoints: [{ method: "GET", url: origin.url("/a") }],
      },
    ]);
  });
  afterAll(async () => {
    await origin.stop();
    await database.drop();
  });

  it("when a sweep's verdicts are computed two services at a time, then each endpoint is judged against its whole category", async () => {
    await sweepOnce({
      db: database.db,
      settings: batched,
      logger: testLogger,
      signal: new AbortController().signal,
    });
    const endpoints = await database.db.endpoint.findMany({
      select: { url: true, health: true, checks: true, service: { select: { status: true, health: true } } },
    });
    const listed = endpoints.filter((e) => e.service.status === "listed");
    expect(listed.map((e) => [new URL(e.url).pathname, e.health, e.service.health]).sort()).toEqual(
      Object.keys(PRICES)
        .map((path) => [path, "live", "live"])
        .sort(),
    );
    const priceSane = (url: string) =>
      (listed.find((e) => e.url === url)?.checks as Check[] | null)?.find((c) => c.id === "price_sane");
    for (const path of ["/a", "/b", "/c", "/d"])
      expect(priceSane(origin.url(path))).toMatchObject({
        result: "pass",
        evidence: { category_median_usdc: "0.03" },
      });
    expect(priceSane(origin.url("/decoy"))).toMatchObject({
      result: "fail",
      reason: "live price ≥ 100× the category median",
      evidence: { live_usdc: "3", category_median_usdc: "0.03" },
    });
    // The delisted service is not judged.
    expect(endpoints.find((e) => e.service.status === "delisted")?.checks).toBeNull();
    const events = await database.db.event.groupBy({ by: ["type"], _count: true, orderBy: { type: "asc" } });
    expect(events.map((e) => [e.type, e._count])).toEqual([
      ["endpoint.health_changed", 5],
      ["service.health_changed", 5],
    ]);
  });

  it("when nothing changed since, then a recompute moves no health and emits nothing", async () => {
    const summary = await refreshTrust(database.db, batched.trust, testLogger);
    expect(summary).toEqual({ endpoints: 5, endpointChanges: 0, serviceChanges: 0 });
    expect(await database.db.event.count()).toBe(10);
  });
});
