import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshServiceSearch } from "../../../src/catalogue/search-documents";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("GET /v1/services?q= (full-text search)", () => {
  let database: TestDatabase;
  let api: TestApp;
  const names = async (path: string): Promise<string[]> => {
    const response = await request(api.app).get(path);
    expect(response.status).toBe(200);
    return response.body.items.map((item: { name: string }) => item.name);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    await seedServices(database.db, [
      {
        name: "Stock Quotes API",
        domain: "api.tickerfeed.test",
        description: "Real-time prices for equities",
        category: "Finance",
        tags: ["market-data"],
        endpoints: [
          {
            method: "GET",
            url: "https://api.tickerfeed.test/v1/quote/{symbol}",
            description: "Latest trade",
          },
        ],
      },
      {
        name: "Market Digest",
        description: "Daily newsletter that sometimes mentions a stock quote",
        category: "Media",
      },
      {
        name: "Geo Coder",
        domain: "maps.geocoder.test",
        description: "Turns addresses into coordinates",
        category: "Maps",
        tags: ["geocoding"],
        endpoints: [
          {
            method: "POST",
            url: "https://maps.geocoder.test/lookup",
            description: "Reverse lookup of latitude and longitude",
          },
        ],
      },
      { name: "Café Finder", description: "Coffee shops nearby", category: "Food" },
      { name: "Weather Now", description: "Forecasts by city", category: "Weather", status: "delisted" },
    ]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when q matches the name, then only matching services are returned with their total", async () => {
    const response = await request(api.app).get("/v1/services?q=geo coder");
    expect(response.status).toBe(200);
    expect(response.body.items.map((i: { name: string }) => i.name)).toEqual(["Geo Coder"]);
    expect(response.body).toMatchObject({ total: 1, has_more: false });
  });

  it("when a word is in the name of one service and the description of another, then the name ranks first", async () => {
    expect(await names("/v1/services?q=stock quote")).toEqual(["Stock Quotes API", "Market Digest"]);
  });

  it("when the query uses a plural or another form, then stemming still matches", async () => {
    expect(await names("/v1/services?q=quotes")).toEqual(["Stock Quotes API", "Market Digest"]);
    expect(await names("/v1/services?q=coordinate")).toEqual(["Geo Coder"]);
  });

  it("when a word is misspelt, then similar known words are searched instead", async () => {
    expect(await names("/v1/services?q=stok quotes")).toEqual(["Stock Quotes API", "Market Digest"]);
    expect(await names("/v1/services?q=geocodng")).toEqual(["Geo Coder"]);
  });

  it("when a word resembles nothing in the catalogue, then nothing is returned", async () => {
    const response = await request(api.app).get("/v1/services?q=zzqxv");
    expect(response.body).toEqual({
      items: [],
      has_more: false,
      total: 0,
      query: { corrected: [], dropped: ["zzqxv"], partial: false },
    });
  });

  it("when the words match but a filter excludes every match, then no fuzzy fallback widens the answer", async () => {
    const response = await request(api.app).get("/v1/services?q=stock&category=Maps");
    expect(response.body).toEqual({
      items: [],
      has_more: false,
      total: 0,
      query: { corrected: [], dropped: [], partial: false },
    });
  });

  it("when q names the domain, the category, a tag or an endpoint description, then the service is found", async () => {
    expect(await names("/v1/services?q=tickerfeed")).toEqual(["Stock Quotes API"]);
    expect(await names("/v1/services?q=api.tickerfeed.test")).toEqual(["Stock Quotes API"]);
    expect(await names("/v1/services?q=maps")).toEqual(["Geo Coder"]);
    expect(await names("/v1/services?q=market-data")).toEqual(["Stock Quotes API"]);
    expect(await names("/v1/services?q=latitude")).toEqual(["Geo Coder"]);
  });

  it("when q has an accent or not, then accented words match either way", async () => {
    expect(await names("/v1/services?q=cafe")).toEqual(["Café Finder"]);
    expect(await names("/v1/services?q=café")).toEqual(["Café Finder"]);
  });

  it("when q uses web-search syntax, then phrases and exclusions are honoured", async () => {
    expect(await names('/v1/services?q="daily newsletter"')).toEqual(["Market Digest"]);
    expect(await names('/v1/services?q="newsletter daily"')).toEqual([]);
    expect(await names("/v1/services?q=stock -equities")).toEqual(["Market Digest"]);
    expect((await names("/v1/services?q=coffee or coordinates")).sort()).toEqual([
      "Café Finder",
      "Geo Coder",
    ]);
  });

  it("when a delisted service matches, then it appears only with status=delisted or all", async () => {
    expect(await names("/v1/services?q=forecast")).toEqual([]);
    expect(await names("/v1/services?q=forecast&status=delisted")).toEqual(["Weather Now"]);
    expect(await names("/v1/services?q=forecast&status=all")).toEqual(["Weather Now"]);
  });

  it("when q is given with another sort, then matches are ordered by that sort", async () => {
    expect(await names("/v1/services?q=stock&sort=name")).toEqual(["Market Digest", "Stock Quotes API"]);
    expect(await names("/v1/services?q=stock&sort=name&order=desc")).toEqual([
      "Stock Quotes API",
      "Market Digest",
    ]);
  });

  it("when a service, its tags or endpoints change and the search is refreshed, then q follows the change", async () => {
    const [id] = await seedServices(database.db, [{ name: "Pixel Painter", tags: ["images"] }]);
    await database.db.service.update({ where: { id }, data: { name: "Vector Sketcher" } });
    await database.db.serviceTag.create({ data: { serviceId: id, tag: "illustration" } });
    await database.db.endpoint.create({
      data: {
        serviceId: id,
        position: 0,
        method: "POST",
        url: "https://sketch.test/draw",
        description: "Draws diagrams",
      },
    });
    expect(await names("/v1/services?q=sketcher")).toEqual([]);

    await refreshServiceSearch(database.db, [id]);
    expect(await names("/v1/services?q=sketcher")).toEqual(["Vector Sketcher"]);
    expect(await names("/v1/services?q=illustration")).toEqual(["Vector Sketcher"]);
    expect(await names("/v1/services?q=diagram")).toEqual(["Vector Sketcher"]);
    expect(await names("/v1/services?q=pixel")).toEqual([]);
    expect(await names("/v1/services?q=skecher")).toEqual(["Vector Sketcher"]);
    const endpoints = await request(api.app).get("/v1/endpoints?q=sketcher draws");
    expect(endpoints.body.items.map((item: { url: string }) => item.url)).toEqual([
      "https://sketch.test/draw",
    ]);
  });
});
