import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("GET /v1/endpoints (endpoint search)", () => {
  let database: TestDatabase;
  let api: TestApp;
  let weatherId: string;

  const urls = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/endpoints?${query}`);
    expect(response.status).toBe(200);
    return response.body.items.map((item: { url: string }) => item.url);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [weatherId] = await seedServices(database.db, [
      {
        name: "Weather Now",
        domain: "weather.test",
        category: "Weather",
        volumeUsdc30d: "500",
        endpoints: [
          {
            method: "GET",
            url: "https://weather.test/v1/forecast/{city}",
            description: "Seven-day forecast for a city",
          },
          { method: "POST", url: "https://weather.test/v1/alerts", description: "Subscribe to storm alerts" },
        ],
      },
      {
        name: "Translator",
        domain: "lingo.test",
        category: "Language",
        volumeUsdc30d: "900",
        endpoints: [
          {
            method: "POST",
            url: "https://lingo.test/translate",
            description: "Translate text between languages",
          },
        ],
      },
      {
        name: "Forecast Hub",
        category: "Weather",
        endpoints: [{ method: "GET", url: "https://hub.test/x", description: "Hourly data" }],
      },
      {
        name: "Old Forecasts",
        category: "Weather",
        status: "delisted",
        endpoints: [{ method: "GET", url: "https://old.test/forecast", description: "Forecast archive" }],
      },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when q describes what an endpoint does, then that endpoint is returned with its service", async () => {
    const response = await request(api.app).get("/v1/endpoints?q=forecast for a city");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        {
          service_id: weatherId,
          service_name: "Weather Now",
          domain: "weather.test",
          method: "GET",
          transport: "http",
          url: "https://weather.test/v1/forecast/{city}",
          description: "Seven-day forecast for a city",
          payability: {
            payable: false,
            decided_by: null,
            reasons: ["no payment requirements are published for it"],
          },
          call: null,
          health: "unknown",
          grade: null,
          score: null,
          warnings: [],
          verified: false,
          last_verified_at: null,
          payment_options: [],
          last_probe: null,
          drift: null,
        },
      ],
      has_more: false,
      total: 1,
      query: { corrected: [], dropped: [], partial: false },
    });
  });

  it("when q matches the URL path, the service name or the category, then the endpoint is found", async () => {
    expect(await urls("q=alerts")).toEqual(["https://weather.test/v1/alerts"]);
    expect(await urls("q=translator")).toEqual(["https://lingo.test/translate"]);
    expect((await urls("q=weather")).sort()).toEqual([
      "https://hub.test/x",
      "https://weather.test/v1/alerts",
      "https://weather.test/v1/forecast/{city}",
    ]);
  });

  it("when the description matches, then it ranks above a match on the service name only", async () => {
    expect(await urls("q=forecast")).toEqual([
      "https://weather.test/v1/forecast/{city}",
      "https://hub.test/x",
    ]);
  });

  it("when a word is misspelt, then similar known words are searched instead", async () => {
    expect(await urls("q=translte")).toEqual(["https://lingo.test/translate"]);
  });

  it("when filtered by method or category, then only those endpoints come", async () => {
    expect((await urls("method=post")).sort()).toEqual([
      "https://lingo.test/translate",
      "https://weather.test/v1/alerts",
    ]);
    expect((await urls("q=weather&method=GET")).sort()).toEqual([
      "https://hub.test/x",
      "https://weather.test/v1/forecast/{city}",
    ]);
    expect(await urls("category=language")).toEqual(["https://lingo.test/translate"]);
  });

  it("when no q is given, then endpoints of the busiest services come first, in page order", async () => {
    expect(await urls("")).toEqual([
      "https://lingo.test/translate",
      "https://weather.test/v1/forecast/{city}",
      "https://weather.test/v1/alerts",
      "https://hub.test/x",
    ]);
  });

  it("when the service is delisted, then its endpoints are not offered", async () => {
    expect(await urls("q=archive")).toEqual([]);
  });

  it("when paged, then pages follow each other with the total", async () => {
    const response = await request(api.app).get("/v1/endpoints?limit=3&offset=3");
    expect(response.body.items.map((item: { url: string }) => item.url)).toEqual(["https://hub.test/x"]);
    expect(response.body).toMatchObject({ has_more: false, total: 4 });
  });
});
