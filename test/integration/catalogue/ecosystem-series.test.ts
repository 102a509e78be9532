import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEcosystemSeries, listedObservedVolume } from "../../../src/catalogue/ecosystem-series";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { firstEndpointId, seedPaymentOptions } from "../../support/payments";

/** The ten days 2026-03-01 to 2026-03-10 (UTC), read at noon on the last. */
const AS_OF = new Date("2026-03-10T12:00:00Z");
const at = (text: string) => new Date(`2026-03-${text}Z`);

describe("the ecosystem per day", () => {
  let database: TestDatabase;
  let pool: ReadPool;
  let ids: { old: string; recent: string; gone: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 2, testLogger);
    const [old, recent, gone] = await seedServices(database.db, [
      {
        name: "Old Finance",
        category: "Finance",
        firstSeenAt: new Date("2026-01-01T00:00:00Z"),
        endpoints: [{ method: "GET", url: "https://old.test/" }],
      },
      {
        name: "New Finance",
        category: "Finance",
        firstSeenAt: at("05T10:00:00"),
        endpoints: [
          { method: "GET", url: "https://new.test/a" },
          { method: "GET", url: "https://new.test/b" },
        ],
      },
      {
        name: "Gone Weather",
        category: "Weather",
        status: "delisted",
        firstSeenAt: new Date("2026-02-01T00:00:00Z"),
        endpoints: [{ method: "GET", url: "https://gone.test/" }],
      },
    ] as const);
    ids = { old, recent, gone };
    await database.db.service.update({ where: { id: gone }, data: { delistedAt: at("03T08:00:00") } });
    // Endpoint rows as old as their services: each counts from its service's first day.
    await database.db.endpoint.updateMany({ data: { createdAt: new Date("2026-01-01T00:00:00Z") } });
    const oldEndpoint = await firstEndpointId(database.db, old);
    await seedPaymentOptions(database.db, oldEndpoint, [{ network: "eip155:8453", priceUsdc: "0.1" }]);
    const recentEndpoint = await firstEndpointId(database.db, recent);
    const probe = (endpointId: string, when: string, valid: boolean, prices: string[] | null) => ({
      endpointId,
      probedAt: at(when),
      outcome: valid ? "challenge" : "no_challenge",
      statusCode: 402,
      latencyMs: 100,
      challengeValid: valid,
      options: prices === null ? undefined : prices.map((price) => ({ price_usdc: price })),
    });
    await database.db.endpointProbe.createMany({
      data: [
        probe(recentEndpoint, "06T01:00:00", true, ["0.5", "0.005"]),
        probe(oldEndpoint, "06T02:00:00", true, ["2"]),
        probe(oldEndpoint, "06T03:00:00", true, ["3"]),
        probe(oldEndpoint, "07T02:00:00", true, null),
        probe(oldEndpoint, "08T02:00:00", false, ["0.001"]),
        probe(oldEndpoint, "10T13:00:00", true, ["0.001"]),
      ],
    });
  });

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it("when services are first seen and delisted, then each day counts those listed at its end, by category and network", async () => {
    const series = await getEcosystemSeries(pool, 10, ["0.01", "1"], AS_OF);
    expect(series.days[0]).toBe("2026-03-01");
    expect(series.days[9]).toBe("2026-03-10");
    const byName = Object.fromEntries(series.categories.map((s) => [s.name, s.counts]));
    expect(byName).toEqual({
      Finance: [1, 1, 1, 1, 2, 2, 2, 2, 2, 2],
      Weather: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    expect(series.networks).toEqual([{ name: "eip155:8453", counts: Array(10).fill(1) }]);
    expect(series.endpoints).toEqual([2, 2, 1, 1, 3, 3, 3, 3, 3, 3]);
  });

  it("when probes saw valid challenges, then each day counts the services once, banded by their lowest price", async () => {
    const series = await getEcosystemSeries(pool, 10, ["0.01", "1"], AS_OF);
    const zero = Array(10).fill(0);
    expect(series.verified).toEqual([0, 0, 0, 0, 0, 2, 1, 0, 0, 0]);
    const day = (k: number) => series.priceBands.map((band) => band[k]);
    // Bands: ≤ 0.01, ≤ 1, above 1, no USDC price.
    expect(day(5)).toEqual([1, 0, 1, 0]);
    expect(day(6)).toEqual([0, 0, 0, 1]);
    expect(series.priceBands.map((band) => band.slice(7))).toEqual(Array(4).fill(zero.slice(7)));
  });

  it("when payments are observed, then the totals are those of listed services only; none read is null", async () => {
    expect(await listedObservedVolume(pool)).toBeNull();
    const activity = (serviceId: string, volume: string) => ({
      serviceId,
      observedVolumeUsdc30d: volume,
      adjustedVolumeUsdc30d: volume,
      observedTxCount30d: 1,
      uniquePayers30d: 1,
      adjustedUniquePayers30d: 1,
      flaggedTransfers30d: 0,
      observed: {},
      computedAt: AS_OF,
    });
    await database.db.serviceActivity.createMany({
      data: [activity(ids.old, "5.5"), activity(ids.recent, "1.25"), activity(ids.gone, "100")],
    });
    expect(await listedObservedVolume(pool)).toEqual({
      services: 2,
      volumeUsdc30d: "6.750000",
      adjustedVolumeUsdc30d: "6.750000",
    });
  });
});
