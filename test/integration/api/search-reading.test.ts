import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** Searches an agent types with slips and extra words, against a small catalogue of its own. */
describe("how a search reads q: typos by edit distance, partial matches, the reading in the answer", () => {
  let database: TestDatabase;
  let api: TestApp;
  const search = async (path: string) => {
    const response = await request(api.app).get(path);
    expect(response.status).toBe(200);
    return {
      names: response.body.items.map(
        (item: { name?: string; service_name?: string }) => item.name ?? item.service_name,
      ),
      query: response.body.query,
      total: response.body.total,
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    await seedServices(database.db, [
      {
        name: "Oracle Feeds",
        description: "Token price feeds for trading agents",
        category: "Finance",
        volumeUsdc30d: "300",
        endpoints: [
          { method: "GET", url: "https://oracle.test/v1/price/{token}", description: "Spot price feed" },
        ],
      },
      {
        name: "Tick Data",
        description: "Historical price candles",
        category: "Finance",
        volumeUsdc30d: "200",
      },
      {
        name: "Skyline",
        description: "Weather forecasts by city",
        category: "Weather",
        volumeUsdc30d: "100",
        endpoints: [
          { method: "GET", url: "https://skyline.test/v1/forecast", description: "Seven-day forecast" },
        ],
      },
      { name: "Atlas", description: "Street maps and routing", category: "Maps" },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when a short word has a one-letter slip (prce feed), then price feeds are found and the correction is said", async () => {
    const found = await search("/v1/services?q=prce%20feed");
    expect(found.names).toEqual(["Oracle Feeds"]);
    expect(found.query.corrected).toEqual([{ word: "prce", to: expect.arrayContaining(["price"]) }]);
    expect(found.query).toMatchObject({ dropped: [], partial: false });
  });

  it.each([
    ["mapz", "maps", "Atlas"],
    ["wether", "weather", "Skyline"],
    ["forcasts", "forecasts", "Skyline"],
  ])("when %s is typed, then it is read as %s", async (typed, known, name) => {
    const found = await search(`/v1/services?q=${typed}`);
    expect(found.names).toEqual([name]);
    expect(found.query.corrected).toEqual([{ word: typed, to: expect.arrayContaining([known]) }]);
  });

  it("when a word is two edits away in a word of five letters, then it is not corrected", async () => {
    const found = await search("/v1/services?q=prxcx");
    expect(found.total).toBe(0);
    expect(found.query).toEqual({ corrected: [], dropped: ["prxcx"], partial: false });
  });

  it("when one word matches nothing, then the others are searched and the word is reported dropped", async () => {
    const found = await search("/v1/services?q=price%20feed%20xyzzyq");
    expect(found.names).toEqual(["Oracle Feeds"]);
    expect(found.query).toEqual({ corrected: [], dropped: ["xyzzyq"], partial: false });
  });

  it("when no entry has every word, then the entries with the most words come first, and the answer says so", async () => {
    // Oracle Feeds has price and feed; Tick Data only price; Skyline only forecast.
    const most = await search("/v1/services?q=price%20feed%20forecast");
    expect(most.names).toEqual(["Oracle Feeds"]);
    expect(most.query).toEqual({ corrected: [], dropped: ["forecast"], partial: false });
    const some = await search("/v1/services?q=price%20forecast&sort=volume");
    expect(some.names).toEqual(["Oracle Feeds", "Tick Data", "Skyline"]);
    expect(some.query).toEqual({ corrected: [], dropped: [], partial: true });
  });

  it("when every word matches together, then the answer says q was read as typed", async () => {
    const found = await search("/v1/services?q=price%20feeds");
    expect(found.names).toEqual(["Oracle Feeds"]);
    expect(found.query).toEqual({ corrected: [], dropped: [], partial: false });
    const unsearched = await request(api.app).get("/v1/services");
    expect(unsearched.body.query).toBeUndefined();
  });

  it("when endpoints are searched with a slip and an extra word, then they are read the same way", async () => {
    const found = await search("/v1/endpoints?q=forcast%20zzkqv");
    expect(found.names).toEqual(["Skyline"]);
    expect(found.query).toEqual({
      corrected: [{ word: "forcast", to: expect.arrayContaining(["forecast"]) }],
      dropped: ["zzkqv"],
      partial: false,
    });
  });
});
