import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type LocalChain, startLocalChain } from "../../../scripts/local-chain";
import type { SettlementChain } from "../../../src/billing/settlement-chains";
import { type RunningSettlement, startSettlement } from "../../../src/billing/settlement-runner";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { recordingLogger } from "../../support/logger";
import { type SwitchableProxy, startSwitchableProxy } from "../../support/switchable-proxy";

const CONFIRMATIONS = 2;
const WAIT = { timeout: 30_000, interval: 50 };

/**
 * A deposit address is reused once it has rested; a transfer belongs to the order that held the
 * address at the transfer's block time, however late the watcher reads it.
 */
describe("a late transfer to a reused deposit address", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let proxy: SwitchableProxy;
  let settlementChain: SettlementChain;
  let api: Replica;
  let settlement: RunningSettlement;
  let shop: IssuedKey;
  let rival: IssuedKey;
  const logs = recordingLogger();

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    // The watcher reads the chain through a proxy the test cuts: the RPC endpoint goes away.
    proxy = await startSwitchableProxy(chain.rpcUrl);
    settlementChain = testChain({
      rpcUrl: proxy.url,
      usdcContract: chain.usdc,
      confirmations: CONFIRMATIONS,
      addressRestSeconds: 0,
    });
    api = await startReplica(database, { settlementChains: [settlementChain] });
    shop = await issueKey(database.db, "shop", "live", ["billing:read", "billing:write"]);
    rival = await issueKey(database.db, "rival", "live", ["billing:read", "billing:write"]);
    settlement = startSettlement({
      databaseUrl: database.url,
      db: database.db,
      chains: [settlementChain],
      logger: logs.logger,
      pollMs: 50,
    });
  });
  afterAll(async () => {
    await settlement.stop();
    await api.close();
    await proxy.close();
    await chain.close();
    await database.drop();
  });

  const createOrder = async (key: IssuedKey, amount: string) => {
    const answer = await callAs(api.url, key, "/v1/payment-orders", "POST", {
      merchant_order_id: `m-${Math.random()}`,
      amount,
      accepted_assets: [{ chain: "base", asset: "USDC" }],
    });
    expect(answer.status).toBe(201);
    return { id: answer.body.id as string, address: answer.body.payment_instructions[0].address as string };
  };
  const cursor = async () => {
    const { rows } = await api.pool.query<{ last_block: string }>(
      "SELECT last_block FROM settlement_cursors WHERE chain = 'base'",
    );
    return rows[0] ? BigInt(rows[0].last_block) : null;
  };

  it("when a payment mined while the watcher could not read the chain is read after its order was canceled and its address reused by another organisation, then it shows on the canceled order and the new one stays unpaid", async () => {
    await vi.waitFor(async () => expect(await cursor()).not.toBeNull(), WAIT);
    proxy.cut();
    const failedBefore = logs.lines.filter((l) => l.msg === "settlement round failed; retrying").length;
    const first = await createOrder(shop, "7");
    const paidIn = await chain.pay(first.address, 7_000_000n);
    await chain.mine(CONFIRMATIONS);
    await vi.waitFor(() => {
      const failed = logs.lines.filter((l) => l.msg === "settlement round failed; retrying").length;
      expect(failed).toBeGreaterThan(failedBefore);
    }, WAIT);
    expect((await callAs(api.url, shop, `/v1/payment-orders/${first.id}/cancel`, "POST")).status).toBe(200);
    const second = await createOrder(rival, "7");
    expect(second.address).toBe(first.address);

    proxy.restore();
    await vi.waitFor(async () => expect(await cursor()).toBeGreaterThanOrEqual(paidIn), WAIT);

    const reused = await callAs(api.url, rival, `/v1/payment-orders/${second.id}`);
    expect(reused.body).toMatchObject({
      status: "created",
      received_amount: "0.000000",
      unapplied_transfers: [],
    });
    const canceled = await callAs(api.url, shop, `/v1/payment-orders/${first.id}`);
    expect(canceled.body).toMatchObject({
      status: "canceled",
      received_amount: "0.000000",
      unapplied_transfers: [{ chain: "base", amount: "7.000000" }],
    });
    const { rows } = await api.pool.query(
      "SELECT order_id, value_units, applied FROM chain_transfers WHERE to_address = $1",
      [first.address],
    );
    expect(rows).toEqual([{ order_id: first.id, value_units: "7000000", applied: false }]);

    // A payment mined once the new order holds the address is the new order's. Block times are
    // whole seconds: one in the second of the handover (rest 0 here) still falls in the old hold.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const paidAgain = await chain.pay(second.address, 7_000_000n);
    await chain.mine(CONFIRMATIONS);
    await vi.waitFor(async () => expect(await cursor()).toBeGreaterThanOrEqual(paidAgain), WAIT);
    const paid = await callAs(api.url, rival, `/v1/payment-orders/${second.id}`);
    expect(paid.body).toMatchObject({ status: "paid", received_amount: "7.000000" });
  });
});
