import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedSince, probedSince } from "../../../../src/catalogue/catalogue-changes";
import { saveTrustVerdicts, type TrustVerdictRow } from "../../../../src/catalogue/trust-queries";
import { createReadPool, type ReadPool } from "../../../../src/db/read-pool";
import { CatalogueKeeper } from "../../../../src/search/freshness/catalogue-keeper";
import type { Catalogue } from "../../../../src/search/load/catalogue";
import { seedServices } from "../../../support/catalogue";
import { serviceItems } from "../../../support/catalogue-pages";
import { createTestDatabase, type TestDatabase } from "../../../support/database";
import { testLogger } from "../../../support/logger";
import { firstEndpointId } from "../../../support/payments";

const dead = (id: string): TrustVerdictRow => ({
  id,
  health: "dead",
  healthReason: "no valid challenge for HEALTH_DEAD_AFTER",
  healthChanged: true,
  checks: null,
  grade: "F",
  score: 12,
  warnings: ["dead"],
});

describe("a sweep's new trust verdicts reach the in-memory catalogue", () => {
  let database: TestDatabase;
  let pool: ReadPool;
  let keeper: CatalogueKeeper;
  let lastId: string;
  let firstEndpoint: string;

  /** The endpoints the catalogue lists by default (dead ones left out), as ids. */
  const listedEndpoints = (catalogue: Catalogue) =>
    catalogue.endpoints
      .list({}, undefined, { offset: 0, limit: 50 }, undefined, Date.now())
      .page.map((i) => catalogue.endpoints.id(i));
  const serviceNames = async (catalogue: Catalogue) =>
    (await serviceItems<{ name: string; health: string }>(pool, catalogue, { status: "listed" }, "name")).map(
      (item) => `${item.name}: ${item.health}`,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 4, testLogger);
    const [first, last] = await seedServices(database.db, [
      {
        name: "First",
        domain: "first.test",
        endpoints: [
          { method: "GET", url: "https://first.test/a" },
          { method: "GET", url: "https://first.test/b" },
        ],
      },
      { name: "Last", domain: "last.test", endpoints: [{ method: "GET", url: "https://last.test/a" }] },
    ]);
    lastId = last;
    firstEndpoint = await firstEndpointId(database.db, first);
    // Read-your-writes: every call checks for changes first.
    keeper = new CatalogueKeeper({ pool, logger: testLogger, refreshMs: 0 });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when only an endpoint's verdicts change, then the catalogue follows in place and leaves it out", async () => {
    const loaded = await keeper.current();
    expect(listedEndpoints(loaded)).toContain(firstEndpoint);
    const snapshot = loaded.snapshot;
    await saveTrustVerdicts(database.db, [dead(firstEndpoint)], [], [], new Date());
    expect(await changedSince(pool, snapshot)).toBe(false);
    expect(await probedSince(pool, snapshot)).toEqual([firstEndpoint]);
    const refreshed = await keeper.current();
    expect(refreshed).toBe(loaded); // the same catalogue, brought up to date in place
    expect(listedEndpoints(refreshed)).not.toContain(firstEndpoint);
    expect(listedEndpoints(refreshed)).toHaveLength(2);
    const asked = refreshed.endpoints.list(
      { health: ["dead"], minGrade: "F", warnings: ["dead"] },
      undefined,
      { offset: 0, limit: 50 },
      undefined,
      Date.now(),
    );
    expect(asked.page.map((i) => refreshed.endpoints.id(i))).toEqual([firstEndpoint]);
  });

  it("when the same verdicts are written again, then nothing counts as changed", async () => {
    const loaded = await keeper.current();
    await saveTrustVerdicts(database.db, [dead(firstEndpoint)], [], [], new Date());
    expect(await probedSince(pool, loaded.snapshot)).toEqual([]);
    expect(await changedSince(pool, loaded.snapshot)).toBe(false);
  });

  it("when a service's verdicts change, then the catalogue loads again and the list follows", async () => {
    const loaded = await keeper.current();
    expect(await serviceNames(loaded)).toEqual(["First: unknown", "Last: unknown"]);
    await saveTrustVerdicts(database.db, [], [dead(lastId)], [], new Date());
    const refreshed = await keeper.current();
    expect(refreshed).not.toBe(loaded);
    expect(await serviceNames(refreshed)).toEqual(["First: unknown"]);
    const asked = await serviceItems<{ name: string; score: number }>(
      pool,
      refreshed,
      { status: "listed", health: ["dead"], minScore: 12 },
      "score",
    );
    expect(asked).toMatchObject([{ name: "Last", score: 12 }]);
  });
});
