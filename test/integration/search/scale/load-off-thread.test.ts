import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadPool, type ReadPool } from "../../../../src/db/read-pool";
import { loadCatalogue } from "../../../../src/search/load/catalogue";
import { partsOnWorkers } from "../../../../src/search/scale/build-workers";
import { seedServices } from "../../../support/catalogue";
import { answers } from "../../../support/catalogue-pages";
import { createTestDatabase, type TestDatabase } from "../../../support/database";
import { testLogger } from "../../../support/logger";

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
    const inPlace = await loadCatalogue(pool, { startParts: partsOnWorkers(Number.POSITIVE_INFINITY) });
    const offThread = await loadCatalogue(pool, { startParts: partsOnWorkers(0) });
    expect(offThread.services.text.size).toBe(30);
    expect(offThread.endpoints.text.size).toBe(60);
    const expected = answers(inPlace);
    expect(expected.searches[0]?.total).toBeGreaterThan(0);
    expect(expected.searches[0]?.posts.length).toBeGreaterThan(0);
    expect(answers(offThread)).toEqual(expected);
    for (const offThreadFrom of [0, Number.POSITIVE_INFINITY]) {
      const onePartAtATime = await loadCatalogue(pool, {
        startParts: partsOnWorkers(offThreadFrom),
        onePartAtATime: true,
      });
      expect(answers(onePartAtATime)).toEqual(expected);
    }
  });

  it("when the process stops during a load, then the load ends at once, on this thread and on the workers", async () => {
    for (const offThreadFrom of [0, Number.POSITIVE_INFINITY]) {
      const stopping = new AbortController();
      const loading = loadCatalogue(pool, {
        startParts: partsOnWorkers(offThreadFrom),
        signal: stopping.signal,
      });
      stopping.abort();
      await expect(loading).rejects.toThrow();
    }
    // Every connection went back: a load after it works.
    expect((await loadCatalogue(pool)).services.size).toBe(30);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
