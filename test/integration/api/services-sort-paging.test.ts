import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { type ServiceSeed, seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const day = (d: number) => new Date(Date.UTC(2026, 0, d));

// Ties (volume 10, tx 7) and missing values in every sorted column.
const SEEDS: ServiceSeed[] = [
  {
    name: "beta",
    volumeUsdc30d: "10",
    txCount30d: 5,
    payerCount30d: 1,
    uptime30d: 99,
    avgResponseMs30d: 100,
    infoUpdatedAt: day(3),
    firstSeenAt: day(1),
  },
  {
    name: "Alpha",
    volumeUsdc30d: "10",
    txCount30d: 7,
    payerCount30d: null,
    uptime30d: 98,
    avgResponseMs30d: 300,
    infoUpdatedAt: null,
    firstSeenAt: day(5),
  },
  {
    name: "gamma",
    volumeUsdc30d: null,
    txCount30d: null,
    payerCount30d: 9,
    uptime30d: null,
    avgResponseMs30d: 50,
    infoUpdatedAt: day(2),
    firstSeenAt: day(3),
  },
  {
    name: "Delta",
    volumeUsdc30d: "250.25",
    txCount30d: 7,
    payerCount30d: 3,
    uptime30d: 99.5,
    avgResponseMs30d: null,
    infoUpdatedAt: day(9),
    firstSeenAt: day(2),
  },
];

type Key = (seed: ServiceSeed) => number | string | null | undefined;
const KEYS: Record<string, { key: Key; defaultOrder: "asc" | "desc" }> = {
  volume: { key: (s) => (s.volumeUsdc30d == null ? null : Number(s.volumeUsdc30d)), defaultOrder: "desc" },
  tx_count: { key: (s) => s.txCount30d, defaultOrder: "desc" },
  payers: { key: (s) => s.payerCount30d, defaultOrder: "desc" },
  uptime: { key: (s) => s.uptime30d, defaultOrder: "desc" },
  response_ms: { key: (s) => s.avgResponseMs30d, defaultOrder: "asc" },
  name: { key: (s) => s.name.toLowerCase(), defaultOrder: "asc" },
  updated: { key: (s) => s.infoUpdatedAt?.getTime() ?? null, defaultOrder: "desc" },
  first_seen: { key: (s) => s.firstSeenAt?.getTime(), defaultOrder: "desc" },
};

describe("GET /v1/services sorting and paging", () => {
  let database: TestDatabase;
  let api: TestApp;
  let ids: string[];

  /** The order the API promises: the key in the asked direction, missing values last, ties by id. */
  function expectedOrder(sort: string, order: "asc" | "desc"): string[] {
    const { key } = KEYS[sort]!;
    const rows = SEEDS.map((seed, i) => ({ id: ids[i]!, value: key(seed) ?? null }));
    rows.sort((a, b) => {
      if (a.value === null || b.value === null) {
        if (a.value !== b.value) return a.value === null ? 1 : -1;
      } else if (a.value !== b.value) {
        const ascending = a.value < b.value ? -1 : 1;
        return order === "asc" ? ascending : -ascending;
      }
      return a.id < b.id ? -1 : 1;
    });
    return rows.map((row) => row.id);
  }

  const listIds = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/services?${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((item: { id: string }) => item.id);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    ids = await seedServices(database.db, SEEDS);
    // 56 delisted services to page through with the default limit.
    await seedServices(
      database.db,
      Array.from({ length: 56 }, (_, i) => ({
        name: `Old ${String(i).padStart(2, "0")}`,
        status: "delisted" as const,
      })),
    );
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  for (const [sort, { defaultOrder }] of Object.entries(KEYS)) {
    it(`when sorted by ${sort}, then both directions order by it with missing values last and ties by id`, async () => {
      expect(await listIds(`sort=${sort}&order=asc`)).toEqual(expectedOrder(sort, "asc"));
      expect(await listIds(`sort=${sort}&order=desc`)).toEqual(expectedOrder(sort, "desc"));
      expect(await listIds(`sort=${sort}`)).toEqual(expectedOrder(sort, defaultOrder));
    });
  }

  it("when no sort and no q are given, then services are ordered by volume, highest first", async () => {
    expect(await listIds("")).toEqual(expectedOrder("volume", "desc"));
  });

  it("when every page of one item is read, then together they are the full list, each item once", async () => {
    for (const sort of Object.keys(KEYS)) {
      const pages: string[] = [];
      for (let offset = 0; offset < SEEDS.length; offset++) {
        const response = await request(api.app).get(`/v1/services?sort=${sort}&limit=1&offset=${offset}`);
        expect(response.body.total).toBe(SEEDS.length);
        expect(response.body.has_more).toBe(offset < SEEDS.length - 1);
        pages.push(...response.body.items.map((item: { id: string }) => item.id));
      }
      expect(pages).toEqual(expectedOrder(sort, KEYS[sort]!.defaultOrder));
    }
  });

  it("when no limit is given, then 50 items come with has_more and the total", async () => {
    const response = await request(api.app).get("/v1/services?status=delisted&sort=name");
    expect(response.body.items).toHaveLength(50);
    expect(response.body).toMatchObject({ has_more: true, total: 56 });
    expect(response.body.items[0].name).toBe("Old 00");
    const rest = await request(api.app).get("/v1/services?status=delisted&sort=name&offset=50");
    expect(rest.body.items.map((item: { name: string }) => item.name)).toEqual([
      "Old 50",
      "Old 51",
      "Old 52",
      "Old 53",
      "Old 54",
      "Old 55",
    ]);
    expect(rest.body).toMatchObject({ has_more: false, total: 56 });
  });

  it("when limit is 200, then up to 200 items come in one page", async () => {
    const response = await request(api.app).get("/v1/services?status=all&limit=200");
    expect(response.body.items).toHaveLength(60);
    expect(response.body).toMatchObject({ has_more: false, total: 60 });
  });

  it("when the offset is past the end, then no items but the true total", async () => {
    const response = await request(api.app).get("/v1/services?offset=10");
    expect(response.body).toEqual({ items: [], has_more: false, total: 4 });
  });

  it("when a page is exactly full, then the total is counted and has_more is false on the last one", async () => {
    const response = await request(api.app).get("/v1/services?limit=4");
    expect(response.body.items).toHaveLength(4);
    expect(response.body).toMatchObject({ has_more: false, total: 4 });
    const partial = await request(api.app).get("/v1/services?limit=2&offset=2");
    expect(partial.body).toMatchObject({ has_more: false, total: 4 });
  });
});
