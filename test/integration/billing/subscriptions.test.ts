import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalChain, startLocalChain } from "../../../scripts/local-chain";
import { untilReadersSawLatestChange } from "../../../src/accounts/key-cache";
import { expireDueOrders } from "../../../src/billing/payment-order-transitions";
import { renewOnce } from "../../../src/billing/renewals";
import type { SettlementChain } from "../../../src/billing/settlement-chains";
import { SettlementWatcher } from "../../../src/billing/settlement-watcher";
import type { BillingSettings } from "../../../src/billing/subscriptions";
import { UsdcChainReader } from "../../../src/chain/usdc-transfers";
import { inTransaction } from "../../../src/db/transaction";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GRACE = 72 * HOUR;
const SCOPES = ["billing:read", "billing:write", "catalogue:read"] as const;

describe("subscriptions, invoices and renewals on a real local chain", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let settlementChain: SettlementChain;
  let settings: BillingSettings;
  let api: Replica;
  let watcher: SettlementWatcher;
  let shop: IssuedKey;
  let shopTest: IssuedKey;
  let rival: IssuedKey;
  let reader: IssuedKey;

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    settlementChain = testChain({ rpcUrl: chain.rpcUrl, usdcContract: chain.usdc, confirmations: 1 });
    settings = { chains: new Map([["base", settlementChain]]), graceMs: GRACE };
    api = await startReplica(database, { settlementChains: [settlementChain], subscriptionGraceMs: GRACE });
    watcher = new SettlementWatcher(
      database.db,
      settlementChain,
      new UsdcChainReader(chain.rpcUrl, chain.usdc),
      testLogger,
    );
    await watcher.catchUp(); // the cursor starts here
    shop = await issueKey(database.db, "shop", "live", [...SCOPES]);
    shopTest = await issueKey(database.db, "shop", "test", [...SCOPES]);
    rival = await issueKey(database.db, "rival", "live", [...SCOPES]);
    reader = await issueKey(database.db, "shop", "live", ["billing:read"]);
  });
  afterAll(async () => {
    await api.close();
    await chain.close();
    await database.drop();
  });

  const call = (key: IssuedKey | null, path: string, method = "GET", body?: unknown) =>
    callAs(api.url, key, path, method, body);
  const subscribe = (key: IssuedKey, planId: string, user = "user-1") =>
    call(key, "/v1/merchant/subscriptions", "POST", { merchant_user_id: user, plan_id: planId });
  const subscription = async (key: IssuedKey, id: string) =>
    (await call(key, `/v1/merchant/subscriptions/${id}`)).body;
  const organisationPlan = async (name: string) =>
    (await api.pool.query("SELECT plan_id FROM organisations WHERE name = $1", [name])).rows[0]?.plan_id;
  /** Pays an invoice's payment order in full by a real transfer and lets the watcher settle it. */
  const payInvoice = async (key: IssuedKey, invoice: { payment_order_id: string }) => {
    const order = (await call(key, `/v1/payment-orders/${invoice.payment_order_id}`)).body;
    await chain.pay(order.payment_instructions[0].address, BigInt(order.chain_amount));
    await watcher.catchUp();
  };
  const eventsOf = async (key: IssuedKey, types: string[]) =>
    (await call(key, `/v1/events?${types.map((type) => `types=${type}`).join("&")}&limit=200`)).body
      .items as Array<{
      type: string;
      data: { subscription?: { id: string } } & Record<string, unknown>;
    }>;
  /** Moves a subscription's period as if `elapsedMs` of it had passed (the API reads the wall clock). */
  const shiftPeriod = (id: string, elapsedMs: number) =>
    api.pool.query(
      `UPDATE subscriptions SET current_period_start = current_period_start - $2 * interval '1 millisecond',
         current_period_end = current_period_end - $2 * interval '1 millisecond' WHERE id = $1`,
      [id, elapsedMs],
    );

  it("when plans are read without a key, then each shows its price per period in USDC and its limits", async () => {
    const answer = await call(null, "/v1/plans");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      {
        id: "default",
        name: "Free",
        price: "0.000000",
        asset: "USDC",
        period_days: 30,
        requests_per_minute: 1200,
        csv_rows_per_day: 10000,
        webhook_endpoints: 1,
      },
      expect.objectContaining({ id: "starter", price: "19.000000", requests_per_minute: 6000 }),
      expect.objectContaining({ id: "pro", price: "99.000000", requests_per_minute: 30000 }),
    ]);
  });

  let subscriptionId: string;

  it("when an organisation subscribes, then the subscription is incomplete with its first invoice and nothing changes until it is paid", async () => {
    const answer = await subscribe(shop, "starter");
    expect(answer.status).toBe(201);
    const { subscription: created, invoice } = answer.body;
    subscriptionId = created.id;
    expect(Object.keys(created).sort()).toEqual(
      [
        "id",
        "merchant_user_id",
        "plan_id",
        "status",
        "current_period_start",
        "current_period_end",
        "cancel_at_period_end",
        "pending_plan_id",
        "pending_plan_change_at",
        "trial_ends_at",
        "canceled_at",
        "created_at",
        "updated_at",
      ].sort(),
    );
    expect(created).toMatchObject({ merchant_user_id: "user-1", plan_id: "starter", status: "incomplete" });
    expect(invoice).toMatchObject({
      subscription_id: created.id,
      merchant_user_id: "user-1",
      kind: "first",
      amount: "19.000000",
      asset: "USDC",
      status: "open",
      target_plan_id: "starter",
      paid_at: null,
    });
    const order = (await call(shop, `/v1/payment-orders/${invoice.payment_order_id}`)).body;
    expect(order).toMatchObject({ amount: "19.000000", status: "created", expires_at: invoice.due_at });
    expect(await organisationPlan("shop")).toBe("default");
    const second = await subscribe(shop, "pro", "user-2");
    expect(second.status).toBe(409);
    expect(second.body.message).toContain(created.id);
  });

  it("when the first invoice's order is paid by a transfer, then the invoice is paid, the subscription active and the organisation on its plan", async () => {
    const [invoice] = (await call(shop, `/v1/merchant/portal/invoices?subscription_id=${subscriptionId}`))
      .body;
    const limitBefore = (await call(shop, "/v1/plans")).headers.get("ratelimit-limit");
    expect(limitBefore).toBe("1200");
    await payInvoice(shop, invoice);
    const active = await subscription(shop, subscriptionId);
    expect(active).toMatchObject({ status: "active", plan_id: "starter" });
    expect(Date.parse(active.current_period_end) - Date.parse(active.current_period_start)).toBe(30 * DAY);
    const [paid] = (
      await call(shop, `/v1/merchant/portal/invoices?subscription_id=${subscriptionId}&status=paid`)
    ).body;
    expect(paid).toMatchObject({ id: invoice.id, status: "paid" });
    expect(await organisationPlan("shop")).toBe("starter");
    // Each API process drops its cached keys when it hears the plan change.
    await untilReadersSawLatestChange(database.db);
    expect((await call(shop, "/v1/plans")).headers.get("ratelimit-limit")).toBe("6000");
    const events = await eventsOf(shop, ["invoice.paid", "subscription.updated", "payment_order.paid"]);
    expect(events.map((event) => event.type)).toEqual([
      "payment_order.paid",
      "invoice.paid",
      "subscription.updated",
    ]);
    expect(events[2]?.data).toMatchObject({
      subscription: { id: subscriptionId, status: "active", plan_id: "starter" },
      previous: { status: "incomplete", plan_id: "starter" },
      reason: "activated",
    });
  });

  it("when it upgrades mid-period, then the invoice is the exactly prorated difference and the plan changes only once a transfer settles it", async () => {
    await shiftPeriod(subscriptionId, 10 * DAY);
    const before = await subscription(shop, subscriptionId);
    const answer = await call(shop, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {
      plan_id: "pro",
    });
    expect(answer.status).toBe(200);
    const { invoice, pending, subscription: after } = answer.body;
    expect(pending).toBe(false);
    expect(after).toMatchObject({ plan_id: "starter", pending_plan_id: null });
    expect(invoice).toMatchObject({ kind: "upgrade", status: "open", target_plan_id: "pro" });
    expect(invoice.period_end).toBe(before.current_period_end);
    // (99 − 19) USDC × ms left / ms in the period, rounded half up to the micro-USDC.
    const left = BigInt(Date.parse(invoice.period_end) - Date.parse(invoice.period_start));
    const period = BigInt(Date.parse(before.current_period_end) - Date.parse(before.current_period_start));
    const expected = (2n * 80_000_000n * left + period) / (2n * period);
    const units = BigInt(invoice.amount.replace(".", ""));
    expect(units).toBe(expected);
    expect(units).toBeGreaterThan(53_300_000n); // about two thirds of 80 USDC are left
    expect(units).toBeLessThan(53_340_000n);
    // Paid short by one micro-USDC: nothing changes.
    const order = (await call(shop, `/v1/payment-orders/${invoice.payment_order_id}`)).body;
    await chain.pay(order.payment_instructions[0].address, units - 1n);
    await watcher.catchUp();
    expect(await subscription(shop, subscriptionId)).toMatchObject({ plan_id: "starter" });
    expect(await organisationPlan("shop")).toBe("starter");
    await chain.pay(order.payment_instructions[0].address, 1n);
    await watcher.catchUp();
    expect(await subscription(shop, subscriptionId)).toMatchObject({ plan_id: "pro", status: "active" });
    expect(await organisationPlan("shop")).toBe("pro");
    // Each API process drops its cached keys when it hears the plan change.
    await untilReadersSawLatestChange(database.db);
    expect((await call(shop, "/v1/plans")).headers.get("ratelimit-limit")).toBe("30000");
  });

  it("when a downgrade is scheduled and the current plan is asked for again, then the scheduled change is withdrawn", async () => {
    const first = await call(shop, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {
      plan_id: "starter",
    });
    expect(first.body.pending).toBe(true);
    // Back to pro (the current plan): the scheduled downgrade is withdrawn.
    const back = await call(shop, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {
      plan_id: "pro",
    });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      pending: false,
      invoice: null,
      subscription: { plan_id: "pro", pending_plan_id: null, pending_plan_change_at: null },
    });
  });

  it("when it downgrades, then the change is pending until the renewal job applies it at the period end with a renewal invoice", async () => {
    const answer = await call(shop, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {
      plan_id: "starter",
    });
    expect(answer.status).toBe(200);
    const { subscription: scheduled, invoice, pending } = answer.body;
    expect(pending).toBe(true);
    expect(invoice).toBeNull();
    expect(scheduled).toMatchObject({
      plan_id: "pro",
      pending_plan_id: "starter",
      pending_plan_change_at: scheduled.current_period_end,
    });
    // Before the period ends the job changes nothing.
    expect(
      await renewOnce(database.db, settings, new Date(Date.parse(scheduled.current_period_end) - 1)),
    ).toEqual({
      canceled: 0,
      renewed: 0,
      pastDue: 0,
    });
    expect(await organisationPlan("shop")).toBe("pro");
    const end = Date.parse(scheduled.current_period_end);
    expect(await renewOnce(database.db, settings, new Date(end + 1_000))).toEqual({
      canceled: 0,
      renewed: 1,
      pastDue: 0,
    });
    const renewed = await subscription(shop, subscriptionId);
    expect(renewed).toMatchObject({
      plan_id: "starter",
      status: "active",
      pending_plan_id: null,
      current_period_start: scheduled.current_period_end,
    });
    expect(Date.parse(renewed.current_period_end) - end).toBe(30 * DAY);
    expect(await organisationPlan("shop")).toBe("starter");
    const [renewal] = (
      await call(shop, `/v1/merchant/portal/invoices?subscription_id=${subscriptionId}&status=open`)
    ).body;
    expect(renewal).toMatchObject({
      kind: "renewal",
      amount: "19.000000",
      target_plan_id: "starter",
      period_start: renewed.current_period_start,
      period_end: renewed.current_period_end,
      due_at: new Date(end + GRACE).toISOString(),
    });
    // A second run at the same moment finds nothing to do.
    expect(await renewOnce(database.db, settings, new Date(end + 1_000))).toEqual({
      canceled: 0,
      renewed: 0,
      pastDue: 0,
    });
  });

  it("when the renewal invoice is unpaid after the grace time, then the subscription is past_due on the free plan until it is paid", async () => {
    const current = await subscription(shop, subscriptionId);
    const due = Date.parse(current.current_period_start) + GRACE;
    expect((await renewOnce(database.db, settings, new Date(due - 1)))?.pastDue).toBe(0);
    expect((await renewOnce(database.db, settings, new Date(due)))?.pastDue).toBe(1);
    expect(await subscription(shop, subscriptionId)).toMatchObject({
      status: "past_due",
      plan_id: "starter",
    });
    expect(await organisationPlan("shop")).toBe("default");
    const refused = await call(shop, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {
      plan_id: "pro",
    });
    expect(refused.status).toBe(409);
    const [renewal] = (
      await call(shop, `/v1/merchant/portal/invoices?subscription_id=${subscriptionId}&status=open`)
    ).body;
    await payInvoice(shop, renewal);
    expect(await subscription(shop, subscriptionId)).toMatchObject({ status: "active", plan_id: "starter" });
    expect(await organisationPlan("shop")).toBe("starter");
  });

  it("when a past_due subscription's renewal order ends unpaid, then the subscription is canceled and the organisation on the free plan", async () => {
    const current = await subscription(shop, subscriptionId);
    const end = Date.parse(current.current_period_end);
    expect(await renewOnce(database.db, settings, new Date(end))).toMatchObject({ renewed: 1 });
    expect(await renewOnce(database.db, settings, new Date(end + GRACE))).toMatchObject({ pastDue: 1 });
    const [renewal] = (
      await call(shop, `/v1/merchant/portal/invoices?subscription_id=${subscriptionId}&status=open`)
    ).body;
    const canceled = await call(shop, `/v1/payment-orders/${renewal.payment_order_id}/cancel`, "POST");
    expect(canceled.status).toBe(200);
    expect(await subscription(shop, subscriptionId)).toMatchObject({ status: "canceled" });
    expect((await subscription(shop, subscriptionId)).canceled_at).not.toBeNull();
    expect((await call(shop, `/v1/merchant/portal/invoices?status=void`)).body).toEqual([
      expect.objectContaining({ id: renewal.id, status: "void" }),
    ]);
    expect(await organisationPlan("shop")).toBe("default");
    // Canceled, it no longer blocks a new subscription.
    expect((await subscribe(shop, "starter", "user-3")).status).toBe(201);
  });

  it("when a first invoice's order is canceled, then the incomplete subscription is canceled", async () => {
    const { subscription: created, invoice } = (await subscribe(rival, "pro")).body;
    await call(rival, `/v1/payment-orders/${invoice.payment_order_id}/cancel`, "POST");
    expect(await subscription(rival, created.id)).toMatchObject({ status: "canceled" });
    expect(await organisationPlan("rival")).toBe("default");
  });

  it("when another organisation or environment asks, then it sees none of these subscriptions, invoices or events", async () => {
    expect((await call(rival, `/v1/merchant/subscriptions/${subscriptionId}`)).status).toBe(404);
    expect((await call(shopTest, `/v1/merchant/subscriptions/${subscriptionId}`)).status).toBe(404);
    expect(
      (
        await call(rival, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {
          plan_id: "pro",
        })
      ).status,
    ).toBe(404);
    const rivalInvoices = (await call(rival, "/v1/merchant/portal/invoices")).body;
    expect(
      rivalInvoices.every(
        (invoice: { subscription_id: string }) => invoice.subscription_id !== subscriptionId,
      ),
    ).toBe(true);
    expect((await call(shopTest, "/v1/merchant/portal/invoices")).body).toEqual([]);
    expect((await call(shopTest, "/v1/merchant/subscriptions")).body).toEqual({ items: [], has_more: false });
    const shopEvents = await eventsOf(shop, ["subscription.updated"]);
    expect(shopEvents.length).toBeGreaterThan(3);
    const rivalEvents = await eventsOf(rival, ["subscription.updated"]);
    expect(rivalEvents.map((event) => event.data.subscription?.id)).not.toContain(subscriptionId);
    expect(await eventsOf(shopTest, ["subscription.updated"])).toEqual([]);
  });

  it("when the test environment's subscription is paid, then the organisation's limits do not change", async () => {
    const { subscription: created, invoice } = (await subscribe(shopTest, "pro")).body;
    const planBefore = await organisationPlan("shop");
    await payInvoice(shopTest, invoice);
    expect(await subscription(shopTest, created.id)).toMatchObject({ status: "active", plan_id: "pro" });
    expect(await organisationPlan("shop")).toBe(planBefore);
    const listed = (await call(shopTest, "/v1/merchant/subscriptions?status=active")).body;
    expect(listed.items.map((item: { id: string }) => item.id)).toEqual([created.id]);
  });

  it("when any new endpoint gets bad input, then it answers 4xx with the error body, never 500", async () => {
    const cases: Array<[IssuedKey | null, string, string, unknown, number, string]> = [
      [shop, "/v1/plans?limit=1", "GET", undefined, 400, 'unknown query parameter "limit"'],
      [shop, "/v1/merchant/subscriptions", "POST", { plan_id: "pro" }, 400, "merchant_user_id"],
      [shop, "/v1/merchant/subscriptions", "POST", { merchant_user_id: "u" }, 400, "plan_id"],
      [
        shop,
        "/v1/merchant/subscriptions",
        "POST",
        { merchant_user_id: "u", plan_id: "pro", x: 1 },
        400,
        '"x"',
      ],
      [
        shop,
        "/v1/merchant/subscriptions",
        "POST",
        { merchant_user_id: "", plan_id: "pro" },
        400,
        "merchant_user_id",
      ],
      [shop, "/v1/merchant/subscriptions", "POST", "{not json", 400, ""],
      [
        rival,
        "/v1/merchant/subscriptions",
        "POST",
        { merchant_user_id: "u", plan_id: "gold" },
        422,
        '"gold"',
      ],
      [
        rival,
        "/v1/merchant/subscriptions",
        "POST",
        { merchant_user_id: "u", plan_id: "default" },
        422,
        "free",
      ],
      [
        reader,
        "/v1/merchant/subscriptions",
        "POST",
        { merchant_user_id: "u", plan_id: "pro" },
        403,
        "billing:write",
      ],
      [null, "/v1/merchant/subscriptions", "GET", undefined, 401, ""],
      [shop, "/v1/merchant/subscriptions?limit=0", "GET", undefined, 400, "limit"],
      [shop, "/v1/merchant/subscriptions?status=paused", "GET", undefined, 400, "status"],
      [shop, "/v1/merchant/subscriptions?sort=id", "GET", undefined, 400, '"sort"'],
      [shop, "/v1/merchant/subscriptions/not-a-uuid", "GET", undefined, 400, "id"],
      [
        shop,
        "/v1/merchant/subscriptions/00000000-0000-4000-8000-000000000000",
        "GET",
        undefined,
        404,
        "No subscription",
      ],
      [shop, `/v1/merchant/subscriptions/${subscriptionId}?x=1`, "GET", undefined, 400, '"x"'],
      [shop, `/v1/merchant/subscriptions/${subscriptionId}/change-plan`, "POST", {}, 400, "plan_id"],
      [
        shop,
        `/v1/merchant/subscriptions/${subscriptionId}/change-plan`,
        "POST",
        { plan_id: 7 },
        400,
        "plan_id",
      ],
      [shop, "/v1/merchant/subscriptions/nope/change-plan", "POST", { plan_id: "pro" }, 400, "id"],
      [
        shop,
        `/v1/merchant/subscriptions/${subscriptionId}/change-plan`,
        "POST",
        { plan_id: "pro" },
        409,
        "canceled",
      ],
      [
        reader,
        `/v1/merchant/subscriptions/${subscriptionId}/change-plan`,
        "POST",
        { plan_id: "pro" },
        403,
        "",
      ],
      [shop, "/v1/merchant/portal/invoices?status=due", "GET", undefined, 400, "status"],
      [shop, "/v1/merchant/portal/invoices?subscription_id=7", "GET", undefined, 400, "subscription_id"],
      [shop, "/v1/merchant/portal/invoices?page=2", "GET", undefined, 400, '"page"'],
    ];
    for (const [key, path, method, body, status, text] of cases) {
      const answer = await call(key, path, method, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.body).toMatchObject({ statusCode: status, message: expect.stringContaining(text) });
    }
  });

  it("when a newer change arrives while an upgrade invoice is open, then that invoice is voided, its order canceled and the plan unchanged", async () => {
    const { subscription: created, invoice } = (await subscribe(rival, "starter", "user-9")).body;
    await payInvoice(rival, invoice);
    rivalSubscriptionId = created.id;
    const upgrade = await call(rival, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", {
      plan_id: "pro",
    });
    expect(upgrade.body.invoice).toMatchObject({ kind: "upgrade", status: "open" });
    const again = await call(rival, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", {
      plan_id: "starter",
    });
    expect(again.body).toMatchObject({ pending: false, invoice: null, subscription: { plan_id: "starter" } });
    const [voided] = (
      await call(rival, `/v1/merchant/portal/invoices?subscription_id=${created.id}&status=void`)
    ).body;
    expect(voided).toMatchObject({ id: upgrade.body.invoice.id, kind: "upgrade" });
    expect(voided.voided_at).not.toBeNull();
    expect((await call(rival, `/v1/payment-orders/${voided.payment_order_id}`)).body.status).toBe("canceled");
    // A payment to the canceled order's address is recorded, not applied: the plan stays.
    await payInvoice(rival, voided);
    expect(await subscription(rival, created.id)).toMatchObject({ plan_id: "starter" });
    expect(await organisationPlan("rival")).toBe("starter");
  });

  let rivalSubscriptionId: string;

  it("when the other plan bills on another period, then change-plan answers 422 and changes nothing", async () => {
    await api.pool.query(
      `INSERT INTO plans (id, name, price_units, period_days, requests_per_minute, updated_at)
       VALUES ('weekly', 'Weekly', 9000000, 7, 3000, now())`,
    );
    const created = await subscription(rival, rivalSubscriptionId);
    const answer = await call(rival, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", {
      plan_id: "weekly",
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain("7 days");
    expect(await subscription(rival, created.id)).toMatchObject({
      plan_id: "starter",
      pending_plan_id: null,
    });
  });
  it("when a subscription is canceled at its period end, then it stays active until the renewal job cancels it then", async () => {
    const answer = await call(rival, `/v1/merchant/subscriptions/${rivalSubscriptionId}/cancel`, "POST", {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "active", cancel_at_period_end: true, canceled_at: null });
    const again = await call(rival, `/v1/merchant/subscriptions/${rivalSubscriptionId}/cancel`, "POST");
    expect(again.body).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await organisationPlan("rival")).toBe("starter");
    const end = Date.parse(answer.body.current_period_end);
    await renewOnce(database.db, settings, new Date(end - 1));
    expect(await subscription(rival, rivalSubscriptionId)).toMatchObject({ status: "active" });
    await renewOnce(database.db, settings, new Date(end));
    const ended = await subscription(rival, rivalSubscriptionId);
    expect(ended).toMatchObject({ status: "canceled", canceled_at: new Date(end).toISOString() });
    expect(await organisationPlan("rival")).toBe("default");
    const renewals = (
      await call(rival, `/v1/merchant/portal/invoices?subscription_id=${rivalSubscriptionId}`)
    ).body;
    expect(renewals.filter((invoice: { kind: string }) => invoice.kind === "renewal")).toEqual([]);
    expect(
      (await call(rival, `/v1/merchant/subscriptions/${rivalSubscriptionId}/cancel`, "POST", {})).status,
    ).toBe(409);
  });

  it("when a subscription is canceled now, then its open invoice is voided with its order and the subscription canceled", async () => {
    const { items } = (await call(shop, "/v1/merchant/subscriptions?merchant_user_id=user-3")).body;
    expect(items).toHaveLength(1);
    const [open] = (await call(shop, `/v1/merchant/portal/invoices?subscription_id=${items[0].id}`)).body;
    expect(open).toMatchObject({ kind: "first", status: "open" });
    const bad = await call(shop, `/v1/merchant/subscriptions/${items[0].id}/cancel`, "POST", {
      at_period_end: "no",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("at_period_end");
    const answer = await call(shop, `/v1/merchant/subscriptions/${items[0].id}/cancel`, "POST", {
      at_period_end: false,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe("canceled");
    expect(
      (await call(shop, `/v1/merchant/portal/invoices?subscription_id=${items[0].id}`)).body[0],
    ).toMatchObject({
      status: "void",
    });
    expect((await call(shop, `/v1/payment-orders/${open.payment_order_id}`)).body.status).toBe("canceled");
    const twice = await call(shop, `/v1/merchant/subscriptions/${items[0].id}/cancel`, "POST", {
      at_period_end: false,
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ statusCode: 409, error: "Conflict" });
  });

  it("when two processes run the renewal job at once, then one round does the work and nothing is issued twice", async () => {
    const { subscription: created, invoice } = (await subscribe(rival, "starter", "user-10")).body;
    await payInvoice(rival, invoice);
    const end = new Date(Date.parse((await subscription(rival, created.id)).current_period_end));
    const rounds = await Promise.all([
      renewOnce(database.db, settings, end),
      renewOnce(database.db, settings, end),
    ]);
    const renewals = (
      await call(rival, `/v1/merchant/portal/invoices?subscription_id=${created.id}`)
    ).body.filter((invoice: { kind: string }) => invoice.kind === "renewal");
    expect(renewals).toHaveLength(1);
    expect(rounds.filter((round) => round !== null && round.renewed > 0)).toHaveLength(1);
  });
  it("when two plan changes race, then one upgrade invoice stays open and the other is void", async () => {
    const racer = await issueKey(database.db, "racer", "live", [...SCOPES]);
    const { subscription: created, invoice } = (await subscribe(racer, "starter")).body;
    await payInvoice(racer, invoice);
    const changes = await Promise.all(
      [1, 2, 3].map(() =>
        call(racer, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", { plan_id: "pro" }),
      ),
    );
    expect(changes.map((change) => change.status)).toEqual([200, 200, 200]);
    const upgrades = (
      await call(racer, `/v1/merchant/portal/invoices?subscription_id=${created.id}`)
    ).body.filter((item: { kind: string }) => item.kind === "upgrade");
    expect(upgrades.map((item: { status: string }) => item.status).sort()).toEqual(["open", "void", "void"]);
  });

  it("when a plan change races the settling payment of the upgrade it supersedes, then the invoice, its order and the plan agree", async () => {
    for (let round = 0; round < 3; round++) {
      const racer = await issueKey(database.db, `settle-racer-${round}`, "live", [...SCOPES]);
      const { subscription: created, invoice: first } = (await subscribe(racer, "starter")).body;
      await payInvoice(racer, first);
      const upgrade = (
        await call(racer, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", { plan_id: "pro" })
      ).body.invoice;
      const order = (await call(racer, `/v1/payment-orders/${upgrade.payment_order_id}`)).body;
      await chain.pay(order.payment_instructions[0].address, BigInt(order.chain_amount));
      const [change] = await Promise.all([
        call(racer, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", { plan_id: "starter" }),
        watcher.catchUp(),
      ]);
      expect(change.status).toBe(200);
      const settled = (
        await call(racer, `/v1/merchant/portal/invoices?subscription_id=${created.id}`)
      ).body.find((item: { id: string }) => item.id === upgrade.id);
      const orderAfter = (await call(racer, `/v1/payment-orders/${upgrade.payment_order_id}`)).body;
      const after = await subscription(racer, created.id);
      if (settled.status === "paid") {
        // The payment won: the upgrade applied, and the change became a downgrade for the period end.
        expect(orderAfter.status).toBe("paid");
        expect(after).toMatchObject({ plan_id: "pro", pending_plan_id: "starter" });
        expect(await organisationPlan(`settle-racer-${round}`)).toBe("pro");
      } else {
        expect(settled.status).toBe("void");
        expect(orderAfter).toMatchObject({ status: "canceled", received_amount: "0.000000" });
        expect(after).toMatchObject({ plan_id: "starter", pending_plan_id: null });
        expect(await organisationPlan(`settle-racer-${round}`)).toBe("starter");
      }
    }
  });
  it("when a first invoice's order expires unpaid, then the invoice is void, the subscription canceled, and the owner sees both events", async () => {
    const late = await issueKey(database.db, "late", "live", [...SCOPES]);
    const { subscription: created, invoice } = (await subscribe(late, "starter")).body;
    // Its expiry has passed and the chain has been read past it (the expiry sweep's conditions).
    await api.pool.query("UPDATE payment_orders SET expires_at = now() - interval '1 second' WHERE id = $1", [
      invoice.payment_order_id,
    ]);
    await chain.mine(1);
    await watcher.catchUp();
    expect(await inTransaction(database.db, (tx) => expireDueOrders(tx))).toBe(1);
    expect(await subscription(late, created.id)).toMatchObject({ status: "canceled" });
    const [voided] = (await call(late, `/v1/merchant/portal/invoices?subscription_id=${created.id}`)).body;
    expect(voided).toMatchObject({ id: invoice.id, status: "void" });
    const events = await eventsOf(late, [
      "payment_order.created",
      "payment_order.expired",
      "subscription.updated",
    ]);
    expect(events.map((event) => event.type)).toEqual([
      "payment_order.created",
      "payment_order.expired",
      "subscription.updated",
    ]);
    expect(events[1]?.data).toMatchObject({
      payment_order: { id: invoice.payment_order_id, status: "expired", amount: "19.000000" },
      metadata: `subscription:${created.id}`,
    });
    expect(events[2]?.data).toMatchObject({
      reason: "first_invoice_unpaid",
      previous: { status: "incomplete" },
    });
  });
  it("when the period ends while an upgrade invoice is open, then renewal waits for it and prices the next period at the plan it settles on", async () => {
    const edge = await issueKey(database.db, "edge", "live", [...SCOPES]);
    const { subscription: created, invoice: first } = (await subscribe(edge, "starter")).body;
    await payInvoice(edge, first);
    const upgrade = (
      await call(edge, `/v1/merchant/subscriptions/${created.id}/change-plan`, "POST", { plan_id: "pro" })
    ).body.invoice;
    const end = new Date(Date.parse((await subscription(edge, created.id)).current_period_end));
    await renewOnce(database.db, settings, end);
    expect(await subscription(edge, created.id)).toMatchObject({ plan_id: "starter", status: "active" });
    expect((await subscription(edge, created.id)).current_period_end).toBe(end.toISOString());
    await payInvoice(edge, upgrade);
    await renewOnce(database.db, settings, end);
    const renewed = await subscription(edge, created.id);
    expect(renewed).toMatchObject({ plan_id: "pro", current_period_start: end.toISOString() });
    const [renewal] = (
      await call(edge, `/v1/merchant/portal/invoices?subscription_id=${created.id}&status=open`)
    ).body;
    expect(renewal).toMatchObject({ kind: "renewal", amount: "99.000000", target_plan_id: "pro" });
  });
});
