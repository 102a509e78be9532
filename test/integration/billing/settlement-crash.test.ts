import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type LocalChain, startLocalChain } from "../../../scripts/local-chain";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type StartedProcess, startEntryPoint } from "../../support/processes";

const CONFIRMATIONS = 2;
const ORDERS = 12;
const WAIT = { timeout: 60_000, interval: 100 };

/**
 * `npm start` runs the settlement watcher; killed with SIGKILL while payments arrive, the next
 * process resumes after the last committed range and credits every payment exactly once.
 */
describe("settlement across a killed process", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let api: Replica;
  let key: IssuedKey;
  let env: Record<string, string>;
  const started: StartedProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    const base = testChain({ rpcUrl: chain.rpcUrl, usdcContract: chain.usdc, confirmations: CONFIRMATIONS });
    api = await startReplica(database, { settlementChains: [base] });
    key = await issueKey(database.db, "shop", "live", ["billing:read", "billing:write"]);
    env = {
      DATABASE_URL: database.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SOURCES: "none",
      PROBE_ENABLED: "false",
      SETTLEMENT_POLL_SECONDS: "1",
      SETTLEMENT_CHAINS: JSON.stringify([
        {
          chain: "base",
          rpc_url: chain.rpcUrl,
          usdc_contract: chain.usdc,
          confirmations: CONFIRMATIONS,
          xpub: base.xpub,
        },
      ]),
    };
  });
  afterAll(async () => {
    for (const process of started) if (process.child.exitCode === null) process.child.kill("SIGKILL");
    await api.close();
    await chain.close();
    await database.drop();
  });

  const product = async () => {
    const process = startEntryPoint("src/main.ts", [], env);
    started.push(process);
    await process.waitForLog((line) => typeof line.msg === "string" && line.msg.includes("listening on"));
    return process;
  };
  const query = async <T>(sql: string) => (await api.pool.query<T & Record<string, unknown>>(sql)).rows;

  it("when `npm start` is killed with SIGKILL while payments arrive, then after a restart every order is paid exactly once", {
    timeout: 180_000,
  }, async () => {
    const first = await product();
    await vi.waitFor(
      async () => expect(await query("SELECT 1 FROM settlement_cursors")).toHaveLength(1),
      WAIT,
    );
    const orders: Array<{ id: string; address: string }> = [];
    for (let i = 0; i < ORDERS; i++) {
      const answer = await callAs(api.url, key, "/v1/payment-orders", "POST", {
        merchant_order_id: `crash-${i}`,
        amount: "1.5",
        accepted_assets: [{ chain: "base", asset: "USDC" }],
      });
      orders.push({ id: answer.body.id, address: answer.body.payment_instructions[0].address });
    }
    const pay = async (order: { address: string }) => {
      await chain.pay(order.address, 1_500_000n);
      await chain.mine(CONFIRMATIONS);
    };
    // The first payment is recorded before the others are sent, so the kill always lands while
    // payments are still arriving (a watcher round that read them all at once would not).
    await pay(orders[0]!);
    await first.waitForLog((line) => line.msg === "recorded USDC transfers", WAIT.timeout);
    const payments = (async () => {
      for (const order of orders.slice(1)) await pay(order);
    })();
    first.child.kill("SIGKILL");
    await first.exited;
    await payments;
    const paidBefore = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM payment_orders WHERE status = 'paid'",
    );
    expect(paidBefore[0]?.n).toBeLessThan(ORDERS);

    await product();
    await vi.waitFor(async () => {
      const paid = await query("SELECT 1 FROM payment_orders WHERE status = 'paid'");
      expect(paid).toHaveLength(ORDERS);
    }, WAIT);
    expect(
      await query("SELECT received_units::text AS received FROM payment_orders GROUP BY received_units"),
    ).toEqual([{ received: "1500000" }]);
    expect(
      await query(`SELECT count(*)::int AS events FROM events WHERE type = 'payment_order.paid'
                   GROUP BY data->'payment_order'->>'id' HAVING count(*) <> 1`),
    ).toEqual([]);
    expect(await query("SELECT count(*)::int AS n FROM events WHERE type = 'payment_order.paid'")).toEqual([
      { n: ORDERS },
    ]);
    expect(await query("SELECT applied, count(*)::int AS n FROM chain_transfers GROUP BY applied")).toEqual([
      { applied: true, n: ORDERS },
    ]);
  });
});
