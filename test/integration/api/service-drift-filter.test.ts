import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const MINUTE = 60_000;

const difference = {
  kind: "price",
  network: "eip155:8453",
  claimed: "0.01 USDC",
  observed: "0.05 USDC",
  message: "price on eip155:8453 is 0.05 USDC, listing says 0.01 USDC",
};

/**
 * Three services: Drifting (one endpoint of two whose latest challenge asks more than its
 * listing), Settled (drifted once, then a later challenge matched) and Unprobed (never probed).
 */
describe("services: filtered by price drift, in the list and services.csv", () => {
  let database: TestDatabase;
  let api: TestApp;
  const now = Date.now();

  const names = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/services?sort=name&${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((item: { name: string }) => item.name);
  };

  const challenge = (endpointId: string, minutesAgo: number, drift: object[]) => ({
    endpointId,
    probedAt: new Date(now - minutesAgo * MINUTE),
    outcome: "challenge" as const,
    statusCode: 402,
    latencyMs: 10,
    challengeValid: true,
    drift,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const db = database.db;
    const [driftingId, settledId] = await seedServices(db, [
      {
        name: "Drifting",
        domain: "drifting.test",
        endpoints: [
          { method: "GET", url: "https://drifting.test/steady" },
          { method: "GET", url: "https://drifting.test/dearer" },
        ],
      },
      {
        name: "Settled",
        domain: "settled.test",
        endpoints: [{ method: "GET", url: "https://settled.test/a" }],
      },
      {
        name: "Unprobed",
        domain: "unprobed.test",
        endpoints: [{ method: "GET", url: "https://unprobed.test/a" }],
      },
    ]);
    const endpointIds = async (serviceId: string) =>
      (await db.endpoint.findMany({ where: { serviceId }, orderBy: { position: "asc" } })).map((e) => e.id);
    const [steady, dearer] = (await endpointIds(driftingId)) as [string, string];
    const [settled] = (await endpointIds(settledId)) as [string];
    await db.endpointProbe.createMany({
      data: [
        challenge(steady, 5, []),
        challenge(dearer, 20, []),
        challenge(dearer, 10, [difference]),
        // Drifted, then the latest challenge matched the listing again: no drift now.
        challenge(settled, 20, [difference]),
        challenge(settled, 10, []),
      ],
    });
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when services are filtered by drift, then an entry matches when any endpoint's latest challenge drifted", async () => {
    expect(await names("drift=true")).toEqual(["Drifting"]);
    expect(await names("drift=false")).toEqual(["Settled", "Unprobed"]);
    expect(await names("drift=false&domain=settled.test")).toEqual(["Settled"]);
  });

  it("when services.csv is filtered by drift, then it holds the same entries as the list", async () => {
    const response = await request(api.app).get("/v1/services.csv?drift=true").buffer(true);
    expect(response.status).toBe(200);
    const [header, ...rows] = parseCsv(response.text);
    const name = (header as string[]).indexOf("name");
    expect(rows.map((row) => row[name])).toEqual(["Drifting"]);
  });

  it("when drift is not true or false, then the answer is a 400 with the error body", async () => {
    const response = await request(api.app).get("/v1/services?drift=yes");
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: "Bad Request" });
    expect(response.body.message).toContain("drift");
  });
});
