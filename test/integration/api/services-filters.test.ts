import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("GET /v1/services filters", () => {
  let database: TestDatabase;
  let api: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    await seedServices(database.db, [
      {
        name: "Alpha",
        description: "A paid API",
        category: "Finance",
        domain: "alpha.test",
        tags: ["payments", "crypto"],
        endpoints: [
          { method: "GET", url: "https://alpha.test/a" },
          { method: "POST", url: "https://alpha.test/b" },
        ],
        uptime30d: 99.9,
        avgResponseMs30d: 120,
        volumeUsdc30d: "1000.5",
        txCount30d: 500,
        payerCount30d: 50,
        infoUpdatedAt: new Date("2026-03-01T00:00:00Z"),
      },
      {
        name: "Bravo",
        description: "A paid API",
        category: "finance",
        domain: "bravo.test",
        tags: ["payments"],
        endpoints: [{ method: "GET", url: "https://bravo.test/a" }],
        uptime30d: 95,
        avgResponseMs30d: 800,
        volumeUsdc30d: "1000.000001",
        txCount30d: 20,
        payerCount30d: 5,
        infoUpdatedAt: new Date("2026-01-15T12:00:00Z"),
      },
      {
        name: "Charlie",
        description: "A paid API",
        category: "Weather",
        domain: "charlie.test",
        tags: ["crypto"],
        endpoints: [{ method: "PUT", url: "https://charlie.test/a" }],
      },
      {
        name: "Delta",
        description: "A paid API",
        category: "Finance",
        domain: "delta.test",
        tags: ["payments"],
        status: "delisted",
        volumeUsdc30d: "999.999999",
        txCount30d: 1,
      },
      // 20 integer digits: a float cannot tell this from 12345678901234567890.000001.
      {
        name: "Echo",
        description: "A paid API",
        category: "Finance",
        volumeUsdc30d: "12345678901234567890",
        uptime30d: 90,
      },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const cases: Array<[string, string[]]> = [
    ["", ["Alpha", "Bravo", "Charlie", "Echo"]],
    ["category=Finance", ["Alpha", "Bravo", "Echo"]],
    ["category=FINANCE", ["Alpha", "Bravo", "Echo"]],
    ["category=Weather", ["Charlie"]],
    ["tag=payments", ["Alpha", "Bravo"]],
    ["tag=payments&tag=crypto", ["Alpha"]],
    ["tag=Crypto", ["Alpha", "Charlie"]],
    ["tag=payments&tag=nothing", []],
    ["method=POST", ["Alpha"]],
    ["method=get", ["Alpha", "Bravo"]],
    ["method=DELETE", []],
    ["domain=bravo.test", ["Bravo"]],
    ["domain=BRAVO.test", ["Bravo"]],
    ["min_uptime=95", ["Alpha", "Bravo"]],
    ["min_uptime=99.95", []],
    ["max_response_ms=500", ["Alpha"]],
    ["max_response_ms=800", ["Alpha", "Bravo"]],
    ["min_volume=1000", ["Alpha", "Bravo", "Echo"]],
    ["min_volume=1000.000001", ["Alpha", "Bravo", "Echo"]],
    ["min_volume=1000.000002", ["Alpha", "Echo"]],
    ["min_volume=12345678901234567890", ["Echo"]],
    ["min_volume=12345678901234567890.000001", []],
    ["min_tx=20", ["Alpha", "Bravo"]],
    ["min_tx=21", ["Alpha"]],
    ["min_payers=6", ["Alpha"]],
    ["min_payers=0", ["Alpha", "Bravo"]],
    ["updated_since=2026-02-01", ["Alpha"]],
    ["updated_since=2026-01-15T12:00:00Z", ["Alpha", "Bravo"]],
    ["updated_since=2026-01-15T13:00:00%2B02:00", ["Alpha", "Bravo"]],
    ["status=listed", ["Alpha", "Bravo", "Charlie", "Echo"]],
    ["status=delisted", ["Delta"]],
    ["status=all", ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]],
    ["status=all&category=finance&min_volume=999", ["Alpha", "Bravo", "Delta", "Echo"]],
    ["category=Finance&tag=payments&method=GET&min_uptime=96", ["Alpha"]],
  ];

  it.each(cases)(
    "when filtered by %s, then exactly the matching services are listed",
    async (query, expected) => {
      const response = await request(api.app).get(`/v1/services?${query}&sort=name`);
      expect(response.status).toBe(200);
      expect(response.body.items.map((item: { name: string }) => item.name)).toEqual(expected);
      expect(response.body.total).toBe(expected.length);
    },
  );

  // With q, a search checks its matches one by one (ServiceColumns.predicate) rather than narrowing
  // lists: the same filters must keep the same services, through a single word and through OR.
  it.each(
    cases.flatMap(([query, expected]) =>
      ["paid", "alpha or bravo or charlie or delta or echo"].map((q) => [q, query, expected] as const),
    ),
  )(
    "when searching %j and filtered by %s, then exactly the matching services are listed",
    async (q, query, expected) => {
      const response = await request(api.app).get(
        `/v1/services?q=${encodeURIComponent(q)}&${query}&sort=name`,
      );
      expect(response.status).toBe(200);
      expect(response.body.items.map((item: { name: string }) => item.name)).toEqual(expected);
      expect(response.body.total).toBe(expected.length);
    },
  );

  it("when an amount has more digits than a float holds, then it is answered exactly as a string", async () => {
    const response = await request(api.app).get("/v1/services?min_volume=12345678901234567890");
    expect(response.body.items[0].volume_usdc_30d).toBe("12345678901234567890.000000");
  });
});
