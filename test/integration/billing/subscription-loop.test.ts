import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { untilReadersSawLatestChange } from "../../../src/accounts/key-cache";
import { type RunningSettlement, startSettlement } from "../../../src/billing/settlement-runner";
import type { HostResolver } from "../../../src/probe/resolve-target";
import { startWebhookDelivery, type WebhookDelivery } from "../../../src/webhooks/delivery-worker";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type LocalChain, startLocalChain } from "../../support/local-chain";
import { testLogger } from "../../support/logger";
import { startWebhookReceiver } from "../../support/webhook-receiver";

const LOOPBACK = ["127.0.0.0/8"];
const resolveLiteral: HostResolver = async (hostname) => [{ address: hostname, family: 4 }];
const WAIT = { timeout: 30_000, interval: 50 };

/**
 * docs/billing.md's loop from zero, with the product's own settlement watcher and webhook delivery
 * running: a key, a subscription, its first invoice paid, an upgrade paid by a transfer on the
 * local chain, then the plan, the key's rate limit and the signed webhook all show the change.
 */
describe("the billing loop of docs/billing.md", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let api: Replica;
  let settlement: RunningSettlement;
  let delivery: WebhookDelivery;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let key: IssuedKey;

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    const base = testChain({ rpcUrl: chain.rpcUrl, usdcContract: chain.usdc, confirmations: 2 });
    receiver = await startWebhookReceiver();
    delivery = await startWebhookDelivery({
      db: database.db,
      databaseUrl: database.url,
      logger: testLogger,
      resolve: resolveLiteral,
      settings: {
        deliver: true,
        allowedNetworks: LOOPBACK,
        eventRetentionDays: 30,
        concurrency: 2,
        pollMs: 50,
        timeoutMs: 10_000,
        retryWindowMs: 3_600_000,
        firstRetryDelayMs: 0,
        maxRetryDelayMs: 0,
        userAgent: "test",
        resolve: resolveLiteral,
      },
    });
    api = await startReplica(database, {
      settlementChains: [base],
      webhooks: { allowedNetworks: LOOPBACK, resolve: resolveLiteral, notify: delivery.notify },
    });
    settlement = startSettlement({
      databaseUrl: database.url,
      db: database.db,
      chains: [base],
      logger: testLogger,
      pollMs: 50,
    });
    // As `npm run keys -- create --organisation acme --environment live --scopes …` does.
    key = await issueKey(database.db, "acme", "live", [
      "billing:read",
      "billing:write",
      "webhooks:write",
      "catalogue:read",
    ]);
  });
  afterAll(async () => {
    await settlement.stop();
    await delivery.stop();
    await api.close();
    await receiver.close();
    await chain.close();
    await database.drop();
  });

  const call = (path: string, method = "GET", body?: unknown) => callAs(api.url, key, path, method, body);
  const payOrder = async (orderId: string) => {
    const order = (await call(`/v1/payment-orders/${orderId}`)).body;
    await chain.pay(order.payment_instructions[0].address, BigInt(order.chain_amount));
    await chain.mine(2);
  };

  it("when a key subscribes, upgrades and pays by transfers, then its plan and rate limit change and the signed webhooks arrive", async () => {
    const endpoint = await call("/v1/webhook-endpoints", "POST", {
      url: `${receiver.url}/billing`,
      enabled_events: ["invoice.paid", "subscription.updated"],
    });
    expect(endpoint.status).toBe(201);
    expect((await call("/v1/plans")).headers.get("ratelimit-limit")).toBe("1200");

    const created = await call("/v1/merchant/subscriptions", "POST", {
      merchant_user_id: "acme-admin",
      plan_id: "starter",
    });
    expect(created.status).toBe(201);
    const id: string = created.body.subscription.id;
    await payOrder(created.body.invoice.payment_order_id);
    await vi.waitFor(
      async () => expect((await call(`/v1/merchant/subscriptions/${id}`)).body.status).toBe("active"),
      WAIT,
    );
    // Each API process drops its cached keys when it hears the plan change.
    await untilReadersSawLatestChange(database.db);
    expect((await call("/v1/plans")).headers.get("ratelimit-limit")).toBe("6000");

    const change = await call(`/v1/merchant/subscriptions/${id}/change-plan`, "POST", { plan_id: "pro" });
    expect(change.body).toMatchObject({ pending: false, subscription: { plan_id: "starter" } });
    await payOrder(change.body.invoice.payment_order_id);
    await vi.waitFor(
      async () => expect((await call(`/v1/merchant/subscriptions/${id}`)).body.plan_id).toBe("pro"),
      WAIT,
    );
    // Each API process drops its cached keys when it hears the plan change.
    await untilReadersSawLatestChange(database.db);
    expect((await call("/v1/plans")).headers.get("ratelimit-limit")).toBe("30000");

    const verifier = new Webhook(endpoint.body.secret);
    await vi.waitFor(() => {
      const events = receiver.received.map(
        (request) => verifier.verify(request.body, request.headers) as { type: string; data: never },
      );
      expect(events).toContainEqual(
        expect.objectContaining({
          type: "subscription.updated",
          data: expect.objectContaining({
            subscription: expect.objectContaining({ id, plan_id: "pro", status: "active" }),
            previous: { plan_id: "starter", status: "active" },
            reason: "upgraded",
          }),
        }),
      );
      expect(events.filter((event) => event.type === "invoice.paid")).toHaveLength(2);
    }, WAIT);
  });
});
