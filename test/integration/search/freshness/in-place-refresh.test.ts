import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedSince, currentSnapshot, probedSince } from "../../../../src/catalogue/catalogue-changes";
import { listedEndpoints } from "../../../../src/catalogue/endpoint-queries";
import { recordProbe } from "../../../../src/catalogue/probe-writes";
import { createReadPool, type ReadPool } from "../../../../src/db/read-pool";
import { CatalogueKeeper } from "../../../../src/search/freshness/catalogue-keeper";
import { type Catalogue, loadCatalogue, prepareOrders } from "../../../../src/search/load/catalogue";
import { runPassesInSlices } from "../../../../src/search/scale/event-loop-slices";
import { listedEndpointFields } from "../../../../src/search/tables/endpoint-columns";
import { runPassesNow } from "../../../../src/search/tables/page-order";
import { seedServices } from "../../../support/catalogue";
import { endpointItems, serviceItems } from "../../../support/catalogue-pages";
import { createTestDatabase, type TestDatabase } from "../../../support/database";
import { testLogger } from "../../../support/logger";
import { seedPaymentOptions } from "../../../support/payments";
import { probeResult } from "../../../support/probe";
import { probeOption } from "../../../unit/payments/fixtures";

let pool: ReadPool;

interface EndpointItem {
  url: string;
  last_probe: { status_code: number | null } | null;
}

/** Every endpoint item of the loaded catalogue, in its default order. */
const endpointsOf = (catalogue: Catalogue) => endpointItems<EndpointItem>(pool, catalogue);

/** Listed service names matching the filters, cheapest first. */
const namesByPrice = async (catalogue: Catalogue, filters: { verified?: boolean } = {}): Promise<string[]> =>
  (await serviceItems<{ name: string }>(pool, catalogue, { status: "listed", ...filters }, "price")).map(
    (item) => item.name,
  );

describe("probe results and seen times reach the in-memory catalogue in place", () => {
  let database: TestDatabase;
  let catalogue: CatalogueKeeper;
  const endpointIds: Record<string, string> = {};
  let probedAt = Date.now() - 60_000;
  const probe = (url: string, options = [probeOption()]) => {
    probedAt += 1_000;
    return recordProbe(database.db, {
      endpointId: endpointIds[url] ?? "",
      probedAt: new Date(probedAt),
      result: probeResult({ options }),
      drift: null,
    });
  };
  /** The endpoint's entry in the catalogue and its fields as they are stored now. */
  const listedEntry = async (catalogue: Catalogue, url: string) => {
    const id = endpointIds[url] ?? "";
    const [row] = await listedEndpoints(pool, [id]);
    const i = catalogue.endpoints.indexOf(id);
    if (row === undefined || i === undefined) throw new Error(`${url} is not listed`);
    return { i, fields: listedEndpointFields(row) };
  };
  const snapshotNow = async () => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      return await currentSnapshot(client);
    } finally {
      await client.query("COMMIT");
      client.release();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 4, testLogger);
    const serviceIds = await seedServices(database.db, [
      {
        name: "Cheap oracle",
        domain: "cheap.test",
        endpoints: [{ method: "GET", url: "https://cheap.test/price" }],
      },
      {
        name: "Dear oracle",
        domain: "dear.test",
        endpoints: [{ method: "GET", url: "https://dear.test/price" }],
      },
    ]);
    for (const serviceId of serviceIds) {
      const [endpoint] = await database.db.endpoint.findMany({ where: { serviceId } });
      if (endpoint) endpointIds[endpoint.url] = endpoint.id;
    }
    await seedPaymentOptions(database.db, endpointIds["https://cheap.test/price"] ?? "", [
      { network: "eip155:8453", networkName: "base", priceUsdc: "0.01" },
    ]);
    await seedPaymentOptions(database.db, endpointIds["https://dear.test/price"] ?? "", [
      { network: "eip155:8453", networkName: "base", priceUsdc: "0.05" },
    ]);
    // Read-your-writes, as tests use it: every call checks for changes first.
    catalogue = new CatalogueKeeper({
      pool,
      logger: testLogger,
      refreshMs: 0,
    });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when a catalogue loads, then each sort's natural order is computed before it answers", async () => {
    // Thirteen service sorts in their natural direction and the endpoints' four orders (price,
    // score, observed and adjusted volume), each computed once.
    const fresh = await loadCatalogue(pool);
    expect(await prepareOrders(fresh, runPassesInSlices)).toBe(17);
    expect(await prepareOrders(fresh)).toBe(0);
    expect(await prepareOrders(await catalogue.current())).toBe(0);
  });

  it("when prices are ranked again while an order is prepared, then the stale order is not kept", async () => {
    const fresh = await loadCatalogue(pool);
    const byPrice = { sort: "price", order: "asc" } as const;
    const preparing = fresh.services.prepareOrders([byPrice], runPassesInSlices);
    // What an in-place update does, between two slices (the ranks are computed within this turn).
    fresh.services.setPriceRanks(await fresh.services.priceRanksWith([]));
    expect(await preparing).toBe(1);
    expect(await fresh.services.prepareOrders([byPrice], runPassesInSlices)).toBe(1);
    expect(await fresh.services.prepareOrders([byPrice], runPassesInSlices)).toBe(0);
  });

  it("when an endpoint is replaced while the endpoints' orders are prepared, then the order prepared across it is not kept", async () => {
    const fresh = await loadCatalogue(pool);
    const { i, fields } = await listedEntry(fresh, "https://dear.test/price");
    const preparing = fresh.endpoints.prepareOrders(runPassesInSlices);
    fresh.endpoints.replace(i, fields); // between two slices of the first order (price)
    expect(await preparing).toBe(4);
    // The price order was prepared across the replacement, the score and volume orders after it.
    expect(await fresh.endpoints.prepareOrders(runPassesInSlices)).toBe(1);
    expect(await fresh.endpoints.prepareOrders(runPassesInSlices)).toBe(0);
  });

  it("when an endpoint's lowest price stays, then the endpoints' price order is kept; when it moves, the order is computed again", async () => {
    const fresh = await loadCatalogue(pool);
    const { i, fields } = await listedEntry(fresh, "https://cheap.test/price");
    expect(fields.prices).toEqual(["0.01"]);
    const byPrice = () => fresh.endpoints.list({}, "price", { offset: 0, limit: 10 }, undefined, Date.now());
    expect(await fresh.endpoints.prepareOrders(runPassesNow)).toBe(4);
    const before = byPrice().page;
    // A probe that confirms the price (written another way) and verifies the endpoint: same order.
    fresh.endpoints.replace(i, { ...fields, prices: ["0.010", "0.5"], lastVerifiedAt: Date.now() });
    expect(await fresh.endpoints.prepareOrders(runPassesNow)).toBe(0);
    expect(byPrice().page).toEqual(before);
    // Dearer than the other endpoint now: the order is computed again, and follows.
    fresh.endpoints.replace(i, { ...fields, prices: ["0.09"] });
    expect(await fresh.endpoints.prepareOrders(runPassesNow)).toBe(1);
    expect(byPrice().page).toEqual([...before].reverse());
  });

  it("when a probe is recorded, then it is a probe change of that endpoint, not a change of the catalogue", async () => {
    const snapshot = await snapshotNow();
    // The listing asks a cent on Base, like the probe's option: the cheapest price stays.
    expect(await probe("https://cheap.test/price")).toBe("recorded");
    expect(await changedSince(pool, snapshot)).toBe(false);
    expect(await probedSince(pool, snapshot)).toEqual([endpointIds["https://cheap.test/price"]]);
  });

  it("when probes change endpoints, then the loaded catalogue shows them without being loaded again", async () => {
    const loaded = await catalogue.current();
    const before = (await endpointsOf(loaded)).find((item) => item.url === "https://dear.test/price");
    expect(before).toMatchObject({ verified: false, last_probe: null });
    expect(await namesByPrice(loaded, { verified: true })).toEqual(["Cheap oracle"]);

    await probe("https://dear.test/price", [probeOption({ price_usdc: "0.05", amount_atomic: "50000" })]);
    const refreshed = await catalogue.current();
    expect(refreshed).toBe(loaded); // the same catalogue, brought up to date in place
    expect(
      (await endpointsOf(refreshed)).find((item) => item.url === "https://dear.test/price"),
    ).toMatchObject({
      verified: true,
      last_probe: { status_code: 402 },
    });
    // The services' verified filter reads the entries' facets, refreshed with them.
    expect(await namesByPrice(refreshed, { verified: true })).toEqual(["Cheap oracle", "Dear oracle"]);
    expect(await changedSince(pool, refreshed.snapshot)).toBe(false);
    expect(await probedSince(pool, refreshed.snapshot)).toEqual([]);
  });

  it("when a crawl marks services as seen, then the list shows the new time without a reload", async () => {
    const loaded = await catalogue.current();
    const seenAt = new Date(Date.now() - 5_000);
    await database.db.service.updateMany({ data: { lastSeenAt: seenAt } });
    const refreshed = await catalogue.current();
    expect(refreshed).toBe(loaded);
    const items = await serviceItems<{ last_seen_at: string }>(pool, refreshed, { status: "all" }, "name");
    expect(items.map((item) => item.last_seen_at)).toEqual([seenAt.toISOString(), seenAt.toISOString()]);
  });

  it("when a probe changes an entry's cheapest price, then the price order follows in place, ranked as Postgres ranks it", async () => {
    const loaded = await catalogue.current();
    expect(await namesByPrice(loaded)).toEqual(["Cheap oracle", "Dear oracle"]);
    await probe("https://dear.test/price", [probeOption({ price_usdc: "0.001", amount_atomic: "1000" })]);
    const refreshed = await catalogue.current();
    expect(refreshed).toBe(loaded);
    // The price orders the update dropped were computed again before any request asked.
    expect(await prepareOrders(refreshed)).toBe(0);
    expect(await namesByPrice(refreshed)).toEqual(["Dear oracle", "Cheap oracle"]);
    // The ranks computed in place are those a fresh load gets from Postgres.
    const fresh = await loadCatalogue(pool);
    const priceRanks = (catalogue: Catalogue) =>
      catalogue.services
        .storedEntries(0, catalogue.services.size)
        .map((entry) => [entry.id, entry.sortRanks.price])
        .sort();
    expect(priceRanks(refreshed)).toEqual(priceRanks(fresh));
  });

  it("when a listing's payment option changes, then it is a change of the catalogue", async () => {
    const snapshot = await snapshotNow();
    await seedPaymentOptions(database.db, endpointIds["https://cheap.test/price"] ?? "", [
      { network: "eip155:137", networkName: "polygon", priceUsdc: "0.02" },
    ]);
    expect(await changedSince(pool, snapshot)).toBe(true);
  });

  it("when a statement changes an endpoint's listing columns, then it is a change of the catalogue", async () => {
    const loaded = await catalogue.current();
    await database.db.endpoint.updateMany({
      where: { id: endpointIds["https://cheap.test/price"] },
      data: { description: "Spot price" },
    });
    expect(await changedSince(pool, loaded.snapshot)).toBe(true);
    expect(await catalogue.current()).not.toBe(loaded);
  });
});
