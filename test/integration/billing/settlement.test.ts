import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type LocalChain, startLocalChain } from "../../../scripts/local-chain";
import type { KeyOwner } from "../../../src/accounts/api-keys";
import { ensureOrganisation } from "../../../src/accounts/organisations";
import { cancelOrder, expireDueOrders } from "../../../src/billing/payment-order-transitions";
import type { SettlementChain } from "../../../src/billing/settlement-chains";
import { SETTLEMENT_LOCK_NAMESPACE, startSettlement } from "../../../src/billing/settlement-runner";
import { SettlementWatcher } from "../../../src/billing/settlement-watcher";
import { UsdcChainReader } from "../../../src/chain/usdc-transfers";
import { inTransaction } from "../../../src/db/transaction";
import { tryLockSource } from "../../../src/scheduling/source-lock";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

const USDC = 1_000_000n;
const CONFIRMATIONS = 3;
const IN_A_WEEK = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

describe("settlement on a real local chain", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let settlementChain: SettlementChain;
  let api: Replica;
  let key: IssuedKey;
  let owner: KeyOwner;

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    settlementChain = testChain({
      rpcUrl: chain.rpcUrl,
      usdcContract: chain.usdc,
      confirmations: CONFIRMATIONS,
    });
    api = await startReplica(database, { settlementChains: [settlementChain] });
    key = await issueKey(database.db, "shop", "live", ["billing:read", "billing:write"]);
    owner = { organisationId: (await ensureOrganisation(database.db, "shop")).id, environment: "live" };
  });
  afterAll(async () => {
    await api.close();
    await chain.close();
    await database.drop();
  });

  const call = (path: string, method = "GET", body?: unknown) => callAs(api.url, key, path, method, body);
  const createOrder = async (amount: string, expiresAt = IN_A_WEEK()) => {
    const answer = await call("/v1/payment-orders", "POST", {
      merchant_order_id: `m-${Math.random()}`,
      amount,
      accepted_assets: [{ chain: "base", asset: "USDC" }],
      expires_at: expiresAt,
    });
    expect(answer.status).toBe(201);
    return { id: answer.body.id as string, address: answer.body.payment_instructions[0].address as string };
  };
  const order = async (id: string) => (await call(`/v1/payment-orders/${id}`)).body;
  const newWatcher = () =>
    new SettlementWatcher(
      database.db,
      settlementChain,
      new UsdcChainReader(chain.rpcUrl, chain.usdc),
      testLogger,
    );
  const transfersOf = async (orderId: string) =>
    (
      await api.pool.query<{ value_units: string; applied: boolean }>(
        "SELECT value_units, applied FROM chain_transfers WHERE order_id = $1 ORDER BY block_number",
        [orderId],
      )
    ).rows;

  it("when an order is paid in full by a transfer, then it is paid only once the block has its confirmations", async () => {
    const watcher = newWatcher();
    await watcher.catchUp(); // the cursor starts here
    const { id, address } = await createOrder("12.5");
    await chain.pay(address, 12_500_000n);
    await watcher.catchUp();
    expect((await order(id)).status).toBe("created");
    await chain.mine(CONFIRMATIONS - 1);
    await watcher.catchUp();
    expect(await order(id)).toMatchObject({ status: "paid", received_amount: "12.500000" });
    expect((await order(id)).paid_at).not.toBeNull();
    const [held] = (
      await api.pool.query("SELECT order_id FROM deposit_addresses WHERE address = $1", [address])
    ).rows;
    expect(held.order_id).toBeNull();
  });

  it("when an order is paid partly and then topped up beyond its amount, then it is paid with the overpayment recorded", async () => {
    const watcher = newWatcher();
    const { id, address } = await createOrder("10");
    await chain.pay(address, 4n * USDC);
    await chain.mine(CONFIRMATIONS);
    await watcher.catchUp();
    expect(await order(id)).toMatchObject({ status: "created", received_amount: "4.000000" });
    await chain.pay(address, 7n * USDC + 1n);
    await chain.mine(CONFIRMATIONS);
    await watcher.catchUp();
    expect(await order(id)).toMatchObject({
      status: "paid",
      received_amount: "11.000001",
      amount: "10.000000",
    });
  });

  it("when the watcher restarts, or reads blocks again, then it resumes after its cursor and counts nothing twice", async () => {
    const { id, address } = await createOrder("10");
    await chain.pay(address, 3n * USDC);
    await chain.mine(CONFIRMATIONS);
    await newWatcher().catchUp();
    // Stopped: a payment arrives while no watcher runs; the restarted one finds it.
    await chain.pay(address, 2n * USDC);
    await chain.mine(CONFIRMATIONS);
    const safe = await newWatcher().catchUp();
    expect(await order(id)).toMatchObject({ status: "created", received_amount: "5.000000" });
    const { rows } = await api.pool.query("SELECT last_block FROM settlement_cursors WHERE chain = 'base'");
    expect(BigInt(rows[0].last_block)).toBe(safe);
    // A crash between reading and recording would make the next watcher read blocks again.
    await api.pool.query("UPDATE settlement_cursors SET last_block = 0 WHERE chain = 'base'");
    await newWatcher().catchUp();
    expect(await order(id)).toMatchObject({ status: "created", received_amount: "5.000000" });
    expect(await transfersOf(id)).toEqual([
      { value_units: "3000000", applied: true },
      { value_units: "2000000", applied: true },
    ]);
  });

  it("when forty cancels race the settling of their orders' payments, then each order ends paid or canceled, never both, and its money shows where it went", async () => {
    const watcher = newWatcher();
    await watcher.catchUp();
    const orders = await Promise.all(Array.from({ length: 40 }, () => createOrder("1")));
    await chain.payAll(orders.map(({ address }) => ({ to: address, units: USDC })));
    await chain.mine(CONFIRMATIONS);
    const [cancelFirst, payFirst] = [orders.slice(0, 20), orders.slice(20)];
    // Each race is made to overlap: one side's transaction is open, uncommitted, when the other
    // reaches the same order. Postgres then re-checks the loser's condition on the winner's row.
    const waiting = async (statement: string) =>
      (
        await api.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND query LIKE $1`,
          [`%${statement}%`],
        )
      ).rowCount ?? 0;
    const cursorHolder = new pg.Client({ connectionString: database.url });
    await cursorHolder.connect();
    await cursorHolder.query("BEGIN");
    await cursorHolder.query("SELECT 1 FROM settlement_cursors WHERE chain = 'base' FOR UPDATE");
    let settling: Promise<bigint> = Promise.resolve(0n);
    // Twenty cancels, uncommitted, while the watcher's transaction reaches their orders…
    await inTransaction(
      database.db,
      async (tx) => {
        for (const { id } of cancelFirst)
          expect(await cancelOrder(tx, owner, id)).toEqual({ kind: "canceled" });
        settling = watcher.catchUp();
        await vi.waitFor(
          async () => expect(await waiting("UPDATE payment_orders SET received_units")).toBe(1),
          {
            timeout: 30_000,
          },
        );
      },
      { timeoutMs: 60_000 },
    );
    // …and twenty cancels arriving while the watcher's transaction has credited theirs, uncommitted.
    await vi.waitFor(async () => expect(await waiting("settlement_cursors")).toBe(1), { timeout: 30_000 });
    const cancels = Promise.all(payFirst.map(({ id }) => call(`/v1/payment-orders/${id}/cancel`, "POST")));
    await vi.waitFor(async () => expect(await waiting("SET status = 'canceled'")).toBeGreaterThan(0), {
      timeout: 30_000,
    });
    await cursorHolder.query("ROLLBACK");
    await cursorHolder.end();
    await settling;
    expect((await cancels).map((answer) => answer.status)).toEqual(Array(20).fill(409));

    const finals = await api.pool.query<{ id: string; type: string }>(
      `SELECT data->'payment_order'->>'id' AS id, type FROM events
       WHERE type IN ('payment_order.paid', 'payment_order.canceled', 'payment_order.unapplied_transfer')`,
    );
    const eventsOf = (id: string) =>
      finals.rows
        .filter((row) => row.id === id)
        .map((row) => row.type)
        .sort();
    for (const { id } of cancelFirst) {
      const settled = await order(id);
      expect(settled).toMatchObject({ status: "canceled", received_amount: "0.000000" });
      expect(settled.unapplied_transfers).toMatchObject([{ amount: "1.000000" }]);
      expect(await transfersOf(id)).toEqual([{ value_units: "1000000", applied: false }]);
      expect(eventsOf(id)).toEqual(["payment_order.canceled", "payment_order.unapplied_transfer"]);
    }
    for (const { id } of payFirst) {
      expect(await order(id)).toMatchObject({
        status: "paid",
        received_amount: "1.000000",
        unapplied_transfers: [],
      });
      expect(await transfersOf(id)).toEqual([{ value_units: "1000000", applied: true }]);
      expect(eventsOf(id)).toEqual(["payment_order.paid"]);
    }
  });

  it("when the product's settlement runs in two processes, then one holds the chain and orders get paid", async () => {
    const runners = [1, 2].map(() =>
      startSettlement({
        databaseUrl: database.url,
        db: database.db,
        chains: [settlementChain],
        logger: testLogger,
        pollMs: 50,
      }),
    );
    try {
      const { id, address } = await createOrder("2");
      await chain.pay(address, 2n * USDC);
      await chain.mine(CONFIRMATIONS);
      await vi.waitFor(async () => expect((await order(id)).status).toBe("paid"), {
        timeout: 20_000,
        interval: 50,
      });
      expect(await tryLockSource(database.url, "base", SETTLEMENT_LOCK_NAMESPACE)).toBeNull();
    } finally {
      for (const runner of runners) await runner.stop();
    }
    const lock = await tryLockSource(database.url, "base", SETTLEMENT_LOCK_NAMESPACE);
    expect(lock).not.toBeNull();
    await lock?.release();
  });

  it("when an order's expiry passes while its on-time payment gathers confirmations, then it is paid, not expired", async () => {
    const watcher = newWatcher();
    await watcher.catchUp();
    const { id, address } = await createOrder("3");
    await chain.pay(address, 3n * USDC);
    // The transfer's block is older than now; the order expires now, before the block is confirmed.
    await api.pool.query(
      "UPDATE payment_orders SET expires_at = now() - interval '1 millisecond' WHERE id = $1",
      [id],
    );
    const sweep = () => inTransaction(database.db, (tx) => expireDueOrders(tx));
    expect(await sweep()).toBe(0);
    await chain.mine(CONFIRMATIONS);
    await watcher.catchUp();
    expect(await sweep()).toBe(0);
    expect(await order(id)).toMatchObject({ status: "paid", received_amount: "3.000000" });
  });

  // Last: it moves the chain's clock forward two hours.
  it("when a payment arrives after the order expired, then it is recorded against the order, not applied", async () => {
    const watcher = newWatcher();
    const { id, address } = await createOrder("5", new Date(Date.now() + 3_600_000).toISOString());
    await chain.advanceTime(2 * 3600);
    await chain.pay(address, 5n * USDC);
    await chain.mine(CONFIRMATIONS);
    await watcher.catchUp();
    expect(await order(id)).toMatchObject({ status: "created", received_amount: "0.000000" });
    expect(await transfersOf(id)).toEqual([{ value_units: "5000000", applied: false }]);
  });
});
