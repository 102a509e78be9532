import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE_CHANGED_CHANNEL } from "../../../src/catalogue/catalogue-changes";
import { type Listener, listenFor } from "../../../src/db/notifications";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { createApp } from "../../../src/http/app";
import { ResponseCache } from "../../../src/http/response-cache";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { testLogger } from "../../support/logger";
import { miniDetail, miniListing } from "../../support/mini-directory";

const HOUR_MS = 3_600_000;

/**
 * API processes whose periodic check is an hour apart (and whose answers are cached), so only the
 * crawl's announcement can bring them the new catalogue within the wait below.
 */
describe("a running API after a crawl", () => {
  let database: TestDatabase;
  const site = new FixtureSite();
  const apis: Array<{ app: ReturnType<typeof createApp>; pool: ReadPool; changes: Listener }> = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/dir", miniListing(["alpha"]));
    site.set("/s/alpha", miniDetail("alpha", "$1,000"));
    for (let i = 0; i < 2; i++) {
      const pool = createReadPool(database.url, 2, testLogger);
      const changes = listenFor(database.url, CATALOGUE_CHANGED_CHANNEL, testLogger);
      const app = createApp({
        db: database.db,
        pool,
        logger: testLogger,
        indexRefreshMs: HOUR_MS,
        responseCache: new ResponseCache(HOUR_MS, 100),
        catalogueChanges: changes,
      });
      apis.push({ app, pool, changes });
    }
  });
  afterAll(async () => {
    for (const api of apis) {
      await api.changes.close();
      await api.pool.end();
    }
    await site.stop();
    await database.drop();
  });

  const volumes = async (app: ReturnType<typeof createApp>) => {
    const response = await request(app).get("/v1/services").expect(200);
    return (response.body.items as Array<{ volume_usdc_30d: string | null }>).map((s) => s.volume_usdc_30d);
  };

  it("when a crawl changes a service, then every running API answers with the change without waiting for its periodic check", async () => {
    await crawlOnce(database.db, database.url, site.url("/dir"));
    for (const api of apis) expect(await volumes(api.app)).toEqual(["1000.000000"]);

    site.set("/s/alpha", miniDetail("alpha", "$2,000"));
    const recrawl = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(recrawl).toMatchObject({ status: "completed", counts: { servicesUpdated: 1 } });
    for (const api of apis) {
      await expect.poll(() => volumes(api.app), { timeout: 30_000, interval: 200 }).toEqual(["2000.000000"]);
    }
  });
});
