import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActivityChain } from "../../../src/activity/activity-chains";
import { ActivityWatcher } from "../../../src/activity/activity-watcher";
import { TransferLogReader } from "../../../src/chain/transfer-logs";
import { activityChain, endpointIdsOf, newAccount, publishPayTo } from "../../support/activity";
import { type LocalChain, startLocalChain } from "../../support/activity-chain";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type LimitedRpc, startLimitedRpc } from "../../support/limited-rpc";
import { testLogger } from "../../support/logger";

describe("reading watched pay_tos' USDC transfers from a real local chain", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let rpc: LimitedRpc;
  let settings: ActivityChain;
  let endpoints: string[];
  const payTos = Array.from({ length: 5 }, () => newAccount());
  const late = newAccount();
  const payer = newAccount();

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    // Public endpoints refuse more than a few blocks or topic values per eth_getLogs; so does this one.
    rpc = await startLimitedRpc(chain.rpcUrl, { maxBlocks: 8, maxTopicValues: 3 });
    settings = activityChain(rpc.url, chain.usdc);
    const [alpha] = await seedServices(database.db, [
      {
        name: "Alpha",
        endpoints: [
          { method: "GET", url: "https://alpha.test/a" },
          { method: "GET", url: "https://alpha.test/b" },
        ],
      },
    ]);
    endpoints = await endpointIdsOf(database.db, alpha);
    for (const [index, account] of payTos.entries()) {
      await publishPayTo(database.db, endpoints[index % 2] as string, account.address);
    }
  });
  afterAll(async () => {
    await rpc.close();
    await chain.close();
    await database.drop();
  });

  const newWatcher = () =>
    new ActivityWatcher(
      database.db,
      settings,
      new TransferLogReader(settings.rpcUrl, settings.usdcContract, settings.limits),
      testLogger,
    );
  const stored = async () =>
    (
      await database.db.$queryRaw<Array<{ from_address: string; to_address: string; value_units: string }>>`
        SELECT from_address, to_address, value_units::text FROM activity_transfers ORDER BY block_number, log_index`
    ).map((row) => `${row.from_address}>${row.to_address}:${row.value_units}`);
  const cursorOf = async (address: string) =>
    (
      await database.db.activityCursor.findUnique({
        where: { chain_address: { chain: settings.chain, address } },
      })
    )?.lastBlock ?? null;

  it("when payments arrive by plain transfer and by EIP-3009 authorization, then each is stored once with its exact value, read in ranges and topic lists the endpoint accepts", async () => {
    const funder = chain.funder.toLowerCase();
    const [a1, a2, a3] = payTos as [(typeof payTos)[0], (typeof payTos)[0], (typeof payTos)[0]];
    await chain.pay(payer.address, 10_000_000n); // to an unwatched address: not stored
    await chain.pay(a1.address, 1_500_000n);
    await chain.pay(late.address, 700_000n); // before `late` is watched
    await chain.mine(12);
    await chain.payWithAuthorization(payer.key, a2.address, 250_000n);
    await chain.payWithAuthorization(payer.key, late.address, 50_000n);
    await chain.pay(a2.address, 1_000_000n);
    await chain.mine(10);
    await chain.payWithAuthorization(a2.key, a3.address, 100_000n); // between two watched: once
    await chain.mine(settings.confirmations);

    const safe = await newWatcher().catchUp();

    expect(await stored()).toEqual([
      `${funder}>${a1.address}:1500000`,
      `${payer.address}>${a2.address}:250000`,
      `${funder}>${a2.address}:1000000`,
      `${a2.address}>${a3.address}:100000`,
    ]);
    expect(rpc.refused).toBeGreaterThan(0);
    for (const request of rpc.logRequests) {
      expect(request.toBlock - request.fromBlock + 1n).toBeLessThanOrEqual(8n);
      for (const topic of request.topics)
        if (Array.isArray(topic)) expect(topic.length).toBeLessThanOrEqual(3);
    }
    for (const account of payTos) expect(await cursorOf(account.address)).toBe(safe);
    // Nothing new: a second round stores nothing and reads no range again.
    const requests = rpc.logRequests.length;
    await newWatcher().catchUp();
    expect(rpc.logRequests.length).toBe(requests);
    expect(await stored()).toHaveLength(4);
  });

  it("when a pay_to is added later and the reader restarts mid-backfill, then only it is read from the start, and nothing is missed or counted twice", async () => {
    const frontier = (await cursorOf(payTos[0]?.address as string)) as bigint;
    await publishPayTo(database.db, endpoints[0] as string, late.address);
    const from = rpc.logRequests.length;
    rpc.breakAfter(14);
    await expect(newWatcher().catchUp()).rejects.toThrow();
    rpc.heal();
    const interrupted = (await cursorOf(late.address)) as bigint;
    expect(interrupted).toBeGreaterThan(0n);
    expect(interrupted).toBeLessThan(frontier);

    await newWatcher().catchUp();

    expect(await cursorOf(late.address)).toBe(await cursorOf(payTos[0]?.address as string));
    const lateRows = (await stored()).filter(
      (row) => row.endsWith(`>${late.address}:700000`) || row.endsWith(`>${late.address}:50000`),
    );
    expect(lateRows).toEqual([
      `${chain.funder.toLowerCase()}>${late.address}:700000`,
      `${payer.address}>${late.address}:50000`,
    ]);
    expect(await stored()).toHaveLength(6);
    // The backfill below the others' cursor asked for the new address only.
    const padded = `0x${late.address.slice(2).padStart(64, "0")}`;
    for (const request of rpc.logRequests.slice(from).filter((r) => r.fromBlock <= frontier)) {
      const addresses = request.topics
        .slice(1)
        .flatMap((topic) => (Array.isArray(topic) ? topic : topic ? [topic] : []));
      expect(addresses).toEqual([padded]);
    }
  });

  it("when the chain reorganises under read blocks, then the replaced transfers are forgotten and the new ones read", async () => {
    const a1 = payTos[0]?.address as string;
    const snapshot = await chain.snapshot();
    await chain.payWithAuthorization(payer.key, a1, 333_000n);
    await chain.mine(settings.confirmations);
    await newWatcher().catchUp();
    expect((await stored()).some((row) => row.endsWith(`>${a1}:333000`))).toBe(true);

    await chain.revert(snapshot);
    await chain.payWithAuthorization(payer.key, a1, 444_000n);
    await chain.mine(settings.confirmations + 3);
    const safe = await newWatcher().catchUp();

    const rows = await stored();
    expect(rows.some((row) => row.endsWith(`>${a1}:333000`))).toBe(false);
    expect(rows.filter((row) => row.endsWith(`>${a1}:444000`))).toHaveLength(1);
    expect(rows).toHaveLength(7);
    expect(await cursorOf(a1)).toBe(safe);
  });
});
