import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getServiceDetail } from "../../../src/catalogue/service-details";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { createTestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const AS_OF = new Date("2026-03-10T12:00:00Z");
const HOUR = 3600 * 1000;
const ago = (hours: number) => new Date(AS_OF.getTime() - hours * HOUR);

type Seed = {
  hoursAgo: number;
  outcome: string;
  status: number | null;
  latency: number | null;
  valid?: boolean;
};

describe("probe statistics", () => {
  let database: TestDatabase;
  let pool: ReadPool;
  let serviceId: string;
  let quietServiceId: string;
  let a: string;
  let b: string;

  async function seedProbes(endpointId: string, seeds: Seed[]) {
    await database.db.endpointProbe.createMany({
      data: seeds.map((s) => ({
        endpointId,
        probedAt: ago(s.hoursAgo),
        outcome: s.outcome,
        statusCode: s.status,
        latencyMs: s.latency,
        challengeValid: s.valid ?? false,
      })),
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 2);
    [serviceId, quietServiceId] = (await seedServices(database.db, [
      {
        name: "Busy",
        endpoints: [
          { method: "GET", url: "https://busy.example/a" },
          { method: "POST", url: "https://busy.example/b" },
        ],
      },
      { name: "Quiet", endpoints: [{ method: "GET", url: "https://quiet.example/x" }] },
    ])) as [string, string];
    const endpoints = await database.db.endpoint.findMany({ orderBy: { url: "asc" } });
    [a, b] = endpoints.map((e) => e.id) as [string, string];

    await seedProbes(a, [
      // Within 24 h: four answers, one timeout, one refusal before sending (not an attempt).
      { hoursAgo: 2, outcome: "challenge", status: 402, latency: 10, valid: true },
      { hoursAgo: 3, outcome: "challenge", status: 402, latency: 20, valid: true },
      { hoursAgo: 4, outcome: "challenge", status: 402, latency: 30, valid: true },
      { hoursAgo: 5, outcome: "challenge", status: 402, latency: 40, valid: true },
      { hoursAgo: 6, outcome: "network_error", status: null, latency: 1000 },
      { hoursAgo: 7, outcome: "refused", status: null, latency: null },
      // Within 7 d: two server errors (down, but they did answer, so they have a latency).
      { hoursAgo: 48, outcome: "http_error", status: 500, latency: 100 },
      { hoursAgo: 72, outcome: "http_error", status: 503, latency: 200 },
      // Within 30 d: one answer without a challenge.
      { hoursAgo: 24 * 20, outcome: "no_challenge", status: 200, latency: 1000 },
      // Outside every window: older than 30 d, and after AS_OF.
      { hoursAgo: 24 * 31, outcome: "challenge", status: 402, latency: 5 },
      { hoursAgo: -1, outcome: "challenge", status: 402, latency: 5 },
    ]);
    await seedProbes(b, [
      { hoursAgo: 1, outcome: "refused", status: 302, latency: 50 },
      { hoursAgo: 30, outcome: "challenge", status: 402, latency: 60, valid: true },
    ]);
    await database.db.endpoint.update({ where: { id: a }, data: { lastVerifiedAt: ago(2) } });
    await database.db.endpoint.update({ where: { id: b }, data: { lastVerifiedAt: ago(30) } });
  });

  /** The probe summaries of a service's detail, by endpoint URL. */
  async function endpointProbes(id: string) {
    const detail = await getServiceDetail(pool, id, AS_OF);
    return new Map(detail?.endpoints.map((endpoint) => [endpoint.url, endpoint.probe]));
  }
  const serviceProbe = async (id: string) => (await getServiceDetail(pool, id, AS_OF))?.probe;

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when an endpoint has probes in each window, then uptime (to 0.01 %) and p50/p99 (to 0.1 ms) are given per window", async () => {
    const stats = (await endpointProbes(serviceId)).get("https://busy.example/a");
    expect(stats?.windows["24h"]).toEqual({
      probes: 6,
      uptimePct: 80,
      p50Ms: 25,
      p99Ms: 39.7,
    });
    expect(stats?.windows["7d"]).toEqual({
      probes: 8,
      uptimePct: 57.14, // 4 of 7, to 0.01 %
      p50Ms: 35,
      p99Ms: 195,
    });
    expect(stats?.windows["30d"]).toEqual({
      probes: 9,
      uptimePct: 62.5,
      p50Ms: 40,
      p99Ms: 952,
    });
  });

  it("when an endpoint was verified within a day, then its last probe and verification are reported", async () => {
    const stats = (await endpointProbes(serviceId)).get("https://busy.example/a");
    expect(stats).toMatchObject({
      lastProbe: { at: ago(2), statusCode: 402, outcome: "challenge", challengeValid: true },
      lastVerifiedAt: ago(2),
      verified: true,
    });
  });

  it("when an endpoint's last valid challenge is older than a day, then it is not verified", async () => {
    const stats = (await endpointProbes(serviceId)).get("https://busy.example/b");
    expect(stats).toMatchObject({
      lastProbe: { at: ago(1), statusCode: 302, outcome: "refused", challengeValid: false },
      lastVerifiedAt: ago(30),
      verified: false,
    });
    // A refused redirect is an answer: up, with the redirect's latency.
    expect(stats?.windows["24h"]).toEqual({ probes: 1, uptimePct: 100, p50Ms: 50, p99Ms: 50 });
  });

  it("when an endpoint was never probed, then it has empty windows and no last probe", async () => {
    const stats = await endpointProbes(quietServiceId);
    expect([...stats.keys()]).toEqual(["https://quiet.example/x"]);
    expect(stats.get("https://quiet.example/x")).toEqual({
      windows: {
        "24h": { probes: 0, uptimePct: null, p50Ms: null, p99Ms: null },
        "7d": { probes: 0, uptimePct: null, p50Ms: null, p99Ms: null },
        "30d": { probes: 0, uptimePct: null, p50Ms: null, p99Ms: null },
      },
      lastProbe: null,
      lastVerifiedAt: null,
      verified: false,
    });
  });

  it("when a service has several endpoints, then its statistics pool all their probes", async () => {
    const busy = await serviceProbe(serviceId);
    // 24 h: a's 6 probes (5 attempted, 4 up) plus b's refused redirect (attempted, up).
    expect(busy?.windows["24h"]).toEqual({
      probes: 7,
      uptimePct: 83.33, // 5 of 6, to 0.01 %
      p50Ms: 30,
      p99Ms: 49.6,
    });
    // 30 d adds b's challenge 30 h ago: latencies 10 20 30 40 50 60 100 200 1000.
    expect(busy?.windows["30d"]).toMatchObject({ probes: 11, uptimePct: 70, p50Ms: 50 });
    expect(busy).toMatchObject({
      lastProbe: { at: ago(1), outcome: "refused" },
      lastVerifiedAt: ago(2),
      verified: true,
    });
    expect(await serviceProbe(quietServiceId)).toMatchObject({ lastProbe: null, verified: false });
  });

  it("when filtering verified=true, then only endpoints and services with a valid challenge in the last day match", async () => {
    await database.db.endpoint.update({
      where: { id: a },
      data: { lastVerifiedAt: new Date(Date.now() - HOUR) },
    });
    await database.db.endpoint.update({
      where: { id: b },
      data: { lastVerifiedAt: new Date(Date.now() - 25 * HOUR) },
    });
    const api = createTestApp(database);
    try {
      const endpoints = await request(api.app).get("/v1/endpoints?limit=10");
      expect(endpoints.status).toBe(200);
      const verifiedUrls = endpoints.body.items
        .filter((item: { verified: boolean }) => item.verified)
        .map((item: { url: string }) => item.url);
      expect(verifiedUrls).toEqual(["https://busy.example/a"]);
      const names = async (path: string) =>
        (await request(api.app).get(path)).body.items.map((item: { name: string }) => item.name);
      expect(await names("/v1/services?verified=true")).toEqual(["Busy"]);
      expect(await names("/v1/services?verified=false")).toEqual(["Quiet"]);
    } finally {
      await api.close();
    }
  });
});
