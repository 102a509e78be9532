import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTIVITY_LOCK_NAMESPACE, startActivity } from "../../../src/activity/activity-runner";
import { tryLockSource } from "../../../src/scheduling/source-lock";
import { activityChain, BASE, endpointIdsOf, newAccount, publishPayTo } from "../../support/activity";
import { type LocalChain, startLocalChain } from "../../support/activity-chain";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

describe("the chain-activity job in several processes", () => {
  let database: TestDatabase;
  let chain: LocalChain;

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
  });
  afterAll(async () => {
    await chain.close();
    await database.drop();
  });

  it("when two processes run it, then one reads the chain, the figures appear, and the lock is free once both stop", async () => {
    const [id] = await seedServices(database.db, [
      { name: "Paid", endpoints: [{ method: "GET", url: "https://paid.test/" }] },
    ]);
    const payTo = newAccount();
    await publishPayTo(database.db, (await endpointIdsOf(database.db, id))[0] as string, payTo.address);
    await chain.pay(payTo.address, 2_500_000n);
    await chain.mine(2);
    const options = {
      databaseUrl: database.url,
      db: database.db,
      chains: [activityChain(chain.rpcUrl, chain.usdc)],
      logger: testLogger,
      pollMs: 100,
    };
    const first = startActivity(options);
    const second = startActivity(options);
    try {
      await vi.waitFor(
        async () => {
          const row = await database.db.serviceActivity.findUnique({ where: { serviceId: id } });
          expect(row?.observedVolumeUsdc30d.toFixed(6)).toBe("2.500000");
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(await tryLockSource(database.url, BASE, ACTIVITY_LOCK_NAMESPACE)).toBeNull();
      expect(await database.db.activityTransfer.count()).toBe(1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    const lock = await tryLockSource(database.url, BASE, ACTIVITY_LOCK_NAMESPACE);
    expect(lock).not.toBeNull();
    await lock?.release();
  });
});
