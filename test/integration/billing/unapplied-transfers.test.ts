import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type LocalChain, startLocalChain } from "../../../scripts/local-chain";
import { ensureOrganisation } from "../../../src/accounts/organisations";
import { expireDueOrders } from "../../../src/billing/payment-order-transitions";
import { SettlementWatcher } from "../../../src/billing/settlement-watcher";
import { UsdcChainReader } from "../../../src/chain/usdc-transfers";
import { inTransaction } from "../../../src/db/transaction";
import { paymentOrderListSchema, paymentOrderSchema } from "../../../src/http/schemas/payment-orders";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import { createWebhookEndpoint } from "../../../src/webhooks/webhook-endpoints";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

const USDC = 1_000_000n;
const CONFIRMATIONS = 2;

/**
 * Money that reached an order's address but was not credited (after it was canceled, expired or
 * paid, or beyond a payment in full) shows on the order and is announced once, so the merchant
 * can refund it without database access.
 */
describe("unapplied transfers", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let api: Replica;
  let key: IssuedKey;
  let watcher: () => SettlementWatcher;
  let endpointId: string;
  const orders = { canceled: "", expired: "", paid: "" };

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    const base = testChain({ rpcUrl: chain.rpcUrl, usdcContract: chain.usdc, confirmations: CONFIRMATIONS });
    api = await startReplica(database, { settlementChains: [base] });
    key = await issueKey(database.db, "shop", "live", ["billing:read", "billing:write", "catalogue:read"]);
    const organisation = await ensureOrganisation(database.db, "shop");
    const endpoint = await createWebhookEndpoint(
      database.db,
      SecretKeyRing.ephemeral(),
      { organisationId: organisation.id, environment: "live" },
      {
        url: "https://hooks.shop.example/x402",
        description: "",
        enabledEvents: ["payment_order.unapplied_transfer"],
        redactMetadata: false,
      },
    );
    if (!("created" in endpoint)) throw new Error("the free plan allows one webhook endpoint");
    endpointId = endpoint.created.endpoint.id;
    watcher = () =>
      new SettlementWatcher(database.db, base, new UsdcChainReader(chain.rpcUrl, chain.usdc), testLogger);
  });
  afterAll(async () => {
    await api.close();
    await chain.close();
    await database.drop();
  });

  const call = (path: string, method = "GET") => callAs(api.url, key, path, method);
  const createOrder = async (amount: string) => {
    const answer = await callAs(api.url, key, "/v1/payment-orders", "POST", {
      merchant_order_id: `m-${amount}-${Math.random()}`,
      amount,
      accepted_assets: [{ chain: "base", asset: "USDC" }],
      metadata: "cart",
    });
    expect(answer.status).toBe(201);
    return { id: answer.body.id as string, address: answer.body.payment_instructions[0].address as string };
  };
  const order = async (id: string) => paymentOrderSchema.parse((await call(`/v1/payment-orders/${id}`)).body);
  const recorded = async (orderId: string) =>
    (
      await api.pool.query<{ tx_hash: string; log_index: number; from_address: string; block_time: Date }>(
        `SELECT tx_hash, log_index, from_address, block_time FROM chain_transfers
         WHERE order_id = $1 AND NOT applied ORDER BY block_number, log_index`,
        [orderId],
      )
    ).rows.map((row) => ({
      chain: "base",
      transaction: row.tx_hash,
      log_index: row.log_index,
      from: row.from_address,
      time: row.block_time.toISOString(),
    }));
  const announced = async () =>
    (await call("/v1/events?types=payment_order.unapplied_transfer&limit=200")).body.items as Array<{
      data: { payment_order: { id: string; status: string }; transfer: Record<string, unknown> };
    }>;
  /** Written to the outbox (the pull API shows an event once no older transaction is open). */
  const written = async () =>
    Number(
      (
        await api.pool.query<{ count: string }>(
          "SELECT count(*) FROM events WHERE type = 'payment_order.unapplied_transfer'",
        )
      ).rows[0]?.count,
    );
  const deliveries = async () =>
    Number(
      (
        await api.pool.query<{ count: string }>(
          "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1",
          [endpointId],
        )
      ).rows[0]?.count,
    );

  it("when transfers arrive after cancel, after expiry, after paid and beyond a payment in full, then each shows on its order and is announced once", async () => {
    await watcher().catchUp(); // the cursor starts here
    const canceled = await createOrder("1");
    expect((await call(`/v1/payment-orders/${canceled.id}/cancel`, "POST")).status).toBe(200);
    await chain.pay(canceled.address, USDC);

    const expired = await createOrder("2");
    await api.pool.query("UPDATE payment_orders SET expires_at = now() - interval '1 second' WHERE id = $1", [
      expired.id,
    ]);
    await chain.mine(CONFIRMATIONS);
    await watcher().catchUp(); // the chain is read past the expiry: the order may expire
    expect(await inTransaction(database.db, (tx) => expireDueOrders(tx))).toBe(1);
    await chain.pay(expired.address, 2n * USDC);

    // Paid in full by the first transfer; the second, read in the same round, overpays.
    const paid = await createOrder("3");
    await chain.pay(paid.address, 3n * USDC);
    await chain.pay(paid.address, 4n * USDC);
    await chain.mine(CONFIRMATIONS);
    await watcher().catchUp();
    // A transfer to a paid order, read in a later round.
    await chain.pay(paid.address, 5n * USDC);
    await chain.mine(CONFIRMATIONS);
    await watcher().catchUp();
    Object.assign(orders, { canceled: canceled.id, expired: expired.id, paid: paid.id });

    expect(await order(canceled.id)).toMatchObject({ status: "canceled", received_amount: "0.000000" });
    expect((await order(canceled.id)).unapplied_transfers).toEqual(
      (await recorded(canceled.id)).map((transfer) => ({ ...transfer, amount: "1.000000" })),
    );
    expect(await order(expired.id)).toMatchObject({ status: "expired", received_amount: "0.000000" });
    expect((await order(expired.id)).unapplied_transfers).toEqual(
      (await recorded(expired.id)).map((transfer) => ({ ...transfer, amount: "2.000000" })),
    );
    const paidOrder = await order(paid.id);
    expect(paidOrder).toMatchObject({ status: "paid", received_amount: "3.000000" });
    const amounts = ["4.000000", "5.000000"];
    expect(paidOrder.unapplied_transfers).toEqual(
      (await recorded(paid.id)).map((transfer, i) => ({ ...transfer, amount: amounts[i] })),
    );
    expect(paidOrder.unapplied_transfers).toHaveLength(2);
    // The time is the block's, as the chain tells it.
    const [first] = paidOrder.unapplied_transfers;
    const receipt = await chain.client.getTransactionReceipt({ hash: first?.transaction as `0x${string}` });
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
    expect(first?.time).toBe(new Date(Number(block.timestamp) * 1000).toISOString());

    const listed = paymentOrderListSchema.parse((await call("/v1/payment-orders")).body);
    const byId = new Map(listed.items.map((item) => [item.id, item.unapplied_transfers]));
    expect(byId.get(paid.id)).toEqual(paidOrder.unapplied_transfers);
    expect(byId.get(canceled.id)).toHaveLength(1);

    expect(await written()).toBe(4);
    await vi.waitFor(async () => expect(await announced()).toHaveLength(4), { timeout: 10_000 });
    const events = await announced();
    expect(events.map((event) => [event.data.payment_order.id, event.data.payment_order.status])).toEqual([
      [canceled.id, "canceled"],
      [expired.id, "expired"],
      [paid.id, "paid"],
      [paid.id, "paid"],
    ]);
    expect(events.map((event) => event.data.transfer)).toEqual([
      ...(await order(canceled.id)).unapplied_transfers,
      ...(await order(expired.id)).unapplied_transfers,
      ...paidOrder.unapplied_transfers,
    ]);
    expect(events[0]?.data).toMatchObject({ metadata: "cart" });
    expect(await deliveries()).toBe(4);
  });

  it("when the chain is read again from block 0 by a restarted watcher, then no transfer is shown or announced twice", async () => {
    await api.pool.query("UPDATE settlement_cursors SET last_block = 0 WHERE chain = 'base'");
    await watcher().catchUp();
    await watcher().catchUp();
    expect((await order(orders.canceled)).unapplied_transfers).toHaveLength(1);
    expect((await order(orders.expired)).unapplied_transfers).toHaveLength(1);
    expect(await order(orders.paid)).toMatchObject({ status: "paid", received_amount: "3.000000" });
    expect((await order(orders.paid)).unapplied_transfers).toHaveLength(2);
    expect(await written()).toBe(4);
    expect(await deliveries()).toBe(4);
  });
});
