import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceOrder } from "../../../src/catalogue/service-queries";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { type LoadedCatalogue, loadCatalogue } from "../../../src/search/loaded-catalogue";
import { parseTsQuery, type TsQuery } from "../../../src/search/tsquery";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

/** A plain tsquery as Postgres prints it. */
const query = (text: string): TsQuery => {
  const parsed = parseTsQuery(text);
  if (parsed === null) throw new Error(`not a tsquery: ${text}`);
  return parsed;
};

/** What a catalogue answers: the matching service ids and endpoint ids for some queries, in order. */
function answers(catalogue: LoadedCatalogue) {
  const paging = { offset: 0, limit: 50 };
  return ["'weather'", "'weather' & 'forecast'", "'stock' | 'quot'", "!'weather'"].map((text) => {
    const found = catalogue.services.find(
      { status: "all" },
      serviceOrder(text, undefined),
      paging,
      query(text),
      Date.now(),
    );
    const endpoints = catalogue.endpoints.list({}, undefined, paging, query(text), Date.now());
    const posts = catalogue.endpoints.list({ method: "POST" }, "price", paging, query(text), Date.now());
    return {
      text,
      services: catalogue.services.ids(found),
      payable: catalogue.services.payableEndpoints(found),
      total: found.total,
      endpoints: endpoints.page.map((i) => catalogue.endpoints.id(i)),
      posts: posts.page.map((i) => catalogue.endpoints.id(i)),
    };
  });
}

describe("loading the catalogue with its text indexes built on worker threads", () => {
  let database: TestDatabase;
  let pool: ReadPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 4, testLogger);
    await seedServices(
      database.db,
      Array.from({ length: 30 }, (_, i) => ({
        name: ["Weather forecast", "Stock quotes", "Weather radar", "Translate"][i % 4] ?? "",
        description: `Service number ${i} for ${["forecast", "quote", "storm", "text"][i % 4]} lookups`,
        endpoints: [
          { method: "GET", url: `https://s${i}.test/a`, description: "weather data" },
          { method: "POST", url: `https://s${i}.test/b`, description: "stock quote" },
        ],
      })),
    );
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when every index is built off the thread, then every search answers as when built in place", async () => {
    const inPlace = await loadCatalogue(pool, { offThreadFrom: Number.POSITIVE_INFINITY });
    const offThread = await loadCatalogue(pool, { offThreadFrom: 0 });
    expect(offThread.services.text.size).toBe(30);
    expect(offThread.endpoints.text.size).toBe(60);
    const expected = answers(inPlace);
    expect(expected[0]?.total).toBeGreaterThan(0);
    expect(expected[0]?.posts.length).toBeGreaterThan(0);
    expect(answers(offThread)).toEqual(expected);
    const oneAtATime = await loadCatalogue(pool, { offThreadFrom: 0, oneWorkerAtATime: true });
    expect(answers(oneAtATime)).toEqual(expected);
  });

  it("when the process stops during a load, then the load ends at once, on this thread and on the workers", async () => {
    for (const offThreadFrom of [0, Number.POSITIVE_INFINITY]) {
      const stopping = new AbortController();
      const loading = loadCatalogue(pool, { offThreadFrom, signal: stopping.signal });
      stopping.abort();
      await expect(loading).rejects.toThrow();
    }
    // Every connection went back: a load after it works.
    expect((await loadCatalogue(pool)).services.size).toBe(30);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
