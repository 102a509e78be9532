import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const DAY_MS = 86_400_000;

/** Midnight UTC `k` days before today, plus `minutes`. */
function daysAgo(k: number, minutes = 30): Date {
  const today = new Date();
  return new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - k * DAY_MS + minutes * 60_000,
  );
}
const dayOf = (k: number) => daysAgo(k, 0).toISOString().slice(0, 10);

const challenge = (prices: string[]) =>
  prices.map((price) => ({ network: "eip155:8453", price_usdc: price, pay_to: "0xabc" }));

interface DailyItem {
  day: string;
  probes: { probes: number; uptime_pct: number | null; p50_ms: number | null; p99_ms: number | null };
  price_min_usdc: string | null;
  price_max_usdc: string | null;
  claimed_volume_usdc_30d: string | null;
  observed_volume_usdc_30d: string | null;
  adjusted_volume_usdc_30d: string | null;
}

describe("GET /v1/services/{id}/history/daily", () => {
  let database: TestDatabase;
  let api: TestApp;
  let quotesId: string;
  let quietId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [quotesId, quietId] = await seedServices(database.db, [
      {
        name: "Quotes",
        domain: "quotes.test",
        endpoints: [
          { method: "GET", url: "https://quotes.test/a" },
          { method: "GET", url: "https://quotes.test/b" },
        ],
        history: [
          { observedFrom: daysAgo(10, 0), observedTo: daysAgo(3, 0), volumeUsdc30d: "100" },
          { observedFrom: daysAgo(3, 0), observedTo: daysAgo(1, 0), volumeUsdc30d: "250.5" },
        ],
      },
      { name: "Quiet", domain: "quiet.test", endpoints: [{ method: "GET", url: "https://quiet.test/" }] },
    ] as const);
    const [a, b] = await database.db.endpoint.findMany({
      where: { serviceId: quotesId },
      orderBy: { position: "asc" },
    });
    if (!a || !b) throw new Error("seeded endpoints missing");
    const probe = (endpointId: string, at: Date, latencyMs: number | null, status: number | null) => ({
      endpointId,
      probedAt: at,
      latencyMs,
      statusCode: status,
      outcome: status === 402 ? "challenge" : status === null ? "refused" : "http_error",
      challengeValid: status === 402,
    });
    await database.db.endpointProbe.createMany({
      data: [
        { ...probe(a.id, daysAgo(2, 30), 100, 402), options: challenge(["0.01", "0.05"]) },
        probe(a.id, daysAgo(2, 60), 300, 503),
        { ...probe(b.id, daysAgo(2, 90), 200, 402), options: challenge(["0.02", "not a price"]) },
        probe(b.id, daysAgo(1, 30), null, null),
        // Older than the range asked for: not counted.
        { ...probe(a.id, daysAgo(40), 5, 402), options: challenge(["9"]) },
      ],
    });
    const zeroes = { volume_usdc: "0", tx_count: 0, unique_payers: 0 };
    const windows = { "24h": zeroes, "7d": zeroes, "30d": zeroes };
    await database.db.serviceActivity.create({
      data: {
        serviceId: quotesId,
        observedVolumeUsdc30d: "4.5",
        adjustedVolumeUsdc30d: "4",
        observedTxCount30d: 3,
        uniquePayers30d: 2,
        adjustedUniquePayers30d: 2,
        flaggedTransfers30d: 1,
        observed: { raw: windows, adjusted: windows },
        computedAt: new Date(),
      },
    });
    const day = (k: number, volume: string, adjusted: string) => ({
      serviceId: quotesId,
      day: daysAgo(k, 0),
      volumeUsdc: volume,
      txCount: 1,
      uniquePayers: 1,
      adjustedVolumeUsdc: adjusted,
      adjustedTxCount: 1,
      adjustedUniquePayers: 1,
    });
    await database.db.serviceActivityDay.createMany({
      data: [day(40, "7", "7"), day(2, "3.5", "3"), day(1, "1", "1")],
    });
  });

  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  async function daily(id: string, query = ""): Promise<DailyItem[]> {
    const res = await request(api.app).get(`/v1/services/${id}/history/daily${query}`).expect(200);
    return res.body.items as DailyItem[];
  }

  it("when no range is given, then it answers the 30 days ending today, oldest first, one row each", async () => {
    const items = await daily(quotesId);
    expect(items.map((i) => i.day)).toEqual(Array.from({ length: 30 }, (_, k) => dayOf(29 - k)));
  });

  it("when probes ran on a day, then that day has their count, uptime, p50/p99 and the prices challenges asked", async () => {
    const byDay = new Map((await daily(quotesId)).map((i) => [i.day, i]));
    expect(byDay.get(dayOf(2))).toMatchObject({
      probes: { probes: 3, uptime_pct: 66.67, p50_ms: 200, p99_ms: 298 },
      price_min_usdc: "0.01",
      price_max_usdc: "0.05",
    });
    // A refused probe is no attempt: counted, but no uptime or latency.
    expect(byDay.get(dayOf(1))?.probes).toEqual({ probes: 1, uptime_pct: null, p50_ms: null, p99_ms: null });
    expect(byDay.get(dayOf(5))).toMatchObject({
      probes: { probes: 0, uptime_pct: null },
      price_min_usdc: null,
    });
  });

  it("when claims and payments are stored, then each day has the claim at its end beside the observed 30 days", async () => {
    const byDay = new Map((await daily(quotesId, "?days=45")).map((i) => [i.day, i]));
    const volumes = (k: number) => {
      const item = byDay.get(dayOf(k));
      return [item?.claimed_volume_usdc_30d, item?.observed_volume_usdc_30d, item?.adjusted_volume_usdc_30d];
    };
    expect(volumes(0)).toEqual([null, "4.500000", "4.000000"]);
    expect(volumes(1)).toEqual(["250.500000", "4.500000", "4.000000"]);
    expect(volumes(3)).toEqual(["250.500000", "0.000000", "0.000000"]);
    expect(volumes(5)).toEqual(["100.000000", "0.000000", "0.000000"]);
    expect(volumes(15)).toEqual([null, "7.000000", "7.000000"]);
    expect(byDay.size).toBe(45);
  });

  it("when no chain is read for a service, then its observed volumes are null, not zero", async () => {
    const items = await daily(quietId, "?days=3");
    expect(items).toHaveLength(3);
    expect(items.every((i) => i.observed_volume_usdc_30d === null && i.probes.probes === 0)).toBe(true);
  });

  it("when the id or the range is wrong, then it answers 404 or 400 with what is allowed", async () => {
    await request(api.app).get("/v1/services/6d1f0a52-0000-4000-8000-000000000000/history/daily").expect(404);
    await request(api.app).get("/v1/services/nope/history/daily").expect(404);
    for (const days of ["0", "366", "x"]) {
      const res = await request(api.app)
        .get(`/v1/services/${quotesId}/history/daily?days=${days}`)
        .expect(400);
      expect(res.body.message).toContain("1 to 365");
    }
  });
});
