import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  changedSince,
  changesSince,
  currentSnapshot,
  pruneCatalogueChanges,
} from "../../../../src/catalogue/catalogue-changes";
import { createReadPool, type ReadPool } from "../../../../src/db/read-pool";
import { CatalogueKeeper } from "../../../../src/search/freshness/catalogue-keeper";
import { seedServices } from "../../../support/catalogue";
import { serviceItems } from "../../../support/catalogue-pages";
import { createTestDatabase, type TestDatabase } from "../../../support/database";
import { recordingLogger, testLogger } from "../../../support/logger";

describe("the in-memory catalogue index follows the database", () => {
  let database: TestDatabase;
  let pool: ReadPool;
  const names = async (store: CatalogueKeeper): Promise<string[]> =>
    (await serviceItems<{ name: string }>(pool, await store.current(), { status: "all" }, "name")).map(
      (item) => item.name,
    );
  /** A snapshot as the index loader takes it: the first statement of a REPEATABLE READ transaction. */
  const takeSnapshot = async (): Promise<string> => {
    const reader = await pool.connect();
    try {
      await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const snapshot = await currentSnapshot(reader);
      await reader.query("COMMIT");
      return snapshot;
    } finally {
      reader.release();
    }
  };
  const store = (refreshMs: number) => new CatalogueKeeper({ pool, logger: testLogger, refreshMs });

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 4, testLogger);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when refreshing before every request, then a write is in the very next answer", async () => {
    const fresh = store(0);
    await seedServices(database.db, [{ name: "Alpha" }]);
    expect(await names(fresh)).toEqual(["Alpha"]);
    await seedServices(database.db, [{ name: "Beta" }]);
    expect(await names(fresh)).toEqual(["Alpha", "Beta"]);
  });

  it("when refreshing every so often, then the loaded index answers until a check finds the change", async () => {
    const lazy = store(60_000);
    const before = await names(lazy);
    await seedServices(database.db, [{ name: "Gamma" }]);
    expect(await names(lazy)).toEqual(before); // not checked yet: the loaded index answers

    const soon = store(50);
    expect(await names(soon)).toContain("Gamma");
    await seedServices(database.db, [{ name: "Delta" }]);
    await expect.poll(() => names(soon), { timeout: 10_000, interval: 60 }).toContain("Delta");
  });

  it("when a change is announced while a reload is under way, then it shows once that reload ends, not at the next periodic check", async () => {
    // A pool whose new connections take 800 ms (as on a busy database): a reload takes its
    // snapshot on its first connection and ends at least 800 ms later, on its second.
    const slow = createReadPool(database.url, 4, testLogger);
    const connect = slow.connect.bind(slow) as (...args: unknown[]) => Promise<pg.PoolClient> | undefined;
    let connected = 0;
    Object.assign(slow, {
      // pool.query passes a callback: those connect at once; the load's own connections wait.
      connect: async (...args: unknown[]) => {
        if (args.length > 0) return connect(...args);
        await new Promise((resolve) => setTimeout(resolve, 800));
        const client = await connect();
        connected += 1;
        return client;
      },
    });
    try {
      const announced = new CatalogueKeeper({ pool: slow, logger: testLogger, refreshMs: 3_600_000 });
      await announced.current();
      await seedServices(database.db, [{ name: "Zeta" }]);
      const before = connected;
      announced.refreshNow(); // a crawl's announcement: a reload starts
      await expect.poll(() => connected, { timeout: 5_000, interval: 10 }).toBeGreaterThan(before);
      // The reload's snapshot is taken; it cannot end for another 800 ms. A second crawl commits.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await seedServices(database.db, [{ name: "Eta" }]);
      announced.refreshNow();
      const loadedNames = async () =>
        (
          await serviceItems<{ name: string }>(slow, await announced.current(), { status: "all" }, "name")
        ).map((item) => item.name);
      await expect.poll(loadedNames, { timeout: 10_000, interval: 100 }).toContain("Eta");
      expect(await loadedNames()).toContain("Zeta");
    } finally {
      await slow.end();
    }
  });

  it("when the process stops during a background reload, then the reload ends without an error logged", async () => {
    const { lines, logger } = recordingLogger();
    const stopping = new AbortController();
    const stopped = new CatalogueKeeper({ pool, logger, refreshMs: 3_600_000, stopping: stopping.signal });
    await stopped.current();
    await seedServices(database.db, [{ name: "Theta" }]);
    stopped.refreshNow();
    await expect
      .poll(() => pool.totalCount - pool.idleCount, { timeout: 5_000, interval: 1 })
      .toBeGreaterThan(0); // the reload holds a connection
    stopping.abort();
    await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 5_000, interval: 20 }).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it("when a change is announced as the process stops and its pool closes, then the failed check is not logged as a warning", async () => {
    const { lines, logger } = recordingLogger();
    const closing = createReadPool(database.url, 2, testLogger);
    const stopping = new AbortController();
    const stopped = new CatalogueKeeper({
      pool: closing,
      logger,
      refreshMs: 3_600_000,
      stopping: stopping.signal,
    });
    await stopped.current();
    stopping.abort();
    await closing.end();
    stopped.refreshNow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it("when a transaction that began before the snapshot commits after it, then the change is still seen", async () => {
    const early = new pg.Client({ connectionString: database.url });
    const late = new pg.Client({ connectionString: database.url });
    await Promise.all([early.connect(), late.connect()]);
    try {
      await early.query("BEGIN");
      await early.query("UPDATE services SET name = 'Alpha (renamed)' WHERE name = 'Alpha'"); // older xid
      await late.query("UPDATE services SET name = 'Beta (renamed)' WHERE name = 'Beta'"); // commits first

      const snapshot = await takeSnapshot();
      expect(await changedSince(pool, snapshot)).toBe(false); // the early one has not committed
      await early.query("COMMIT");
      expect(await changedSince(pool, snapshot)).toBe(true);
    } finally {
      await Promise.all([early.end(), late.end()]);
    }
  });

  it("when only tables the API does not list change, then nothing counts as a change", async () => {
    const snapshot = await takeSnapshot();
    await database.db.crawlRun.deleteMany();
    expect(await changesSince(pool, snapshot)).toEqual({ shape: false, seen: false, probes: false });
    await database.db.service.updateMany({ data: { description: "Now with a description" } });
    expect(await changedSince(pool, snapshot)).toBe(true);
  });

  it("when services are only marked as seen, or a statement changes no row, then the shape did not change", async () => {
    const snapshot = await takeSnapshot();
    await database.db.service.updateMany({ data: { lastSeenAt: new Date() } });
    await database.db.service.updateMany({
      data: { status: "delisted" },
      where: { name: "no such service" },
    });
    expect(await changesSince(pool, snapshot)).toEqual({ shape: false, seen: true, probes: false });
  });

  it("when changes are a day old, then pruning forgets them and keeps recent ones", async () => {
    await pool.query("UPDATE catalogue_changes SET changed_at = now() - interval '2 days'");
    const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM catalogue_changes");
    expect(await pruneCatalogueChanges(database.db)).toBe(rows[0]?.n);
    await seedServices(database.db, [{ name: "Epsilon" }]);
    expect(await pruneCatalogueChanges(database.db)).toBe(0);
  });
});
