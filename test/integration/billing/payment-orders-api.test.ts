import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvmAddressDeriver } from "../../../src/chain/deposit-address";
import {
  call as callApi,
  callAs,
  type IssuedKey,
  issueKey,
  type Replica,
  startReplica,
} from "../../support/accounts";
import { TEST_XPUB, testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("payment orders over the API", () => {
  let database: TestDatabase;
  let api: Replica;
  let writer: IssuedKey;
  let reader: IssuedKey;
  let otherOrganisation: IssuedKey;
  let testEnvironment: IssuedKey;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database, {
      settlementChains: [testChain(), testChain({ chain: "ethereum" })],
      accountSettings: { anonymousRequestsPerMinute: 1_000_000 },
    });
    writer = await issueKey(database.db, "shop", "live", ["billing:read", "billing:write"]);
    reader = await issueKey(database.db, "shop", "live", ["billing:read"]);
    otherOrganisation = await issueKey(database.db, "rival", "live", ["billing:read", "billing:write"]);
    testEnvironment = await issueKey(database.db, "shop", "test", ["billing:read", "billing:write"]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const call = (key: IssuedKey, path: string, method = "GET", body?: unknown) =>
    callAs(api.url, key, path, method, body);
  const order = (key: IssuedKey, fields: Record<string, unknown> = {}) =>
    call(key, "/v1/payment-orders", "POST", {
      merchant_order_id: "order-1",
      amount: "12.5",
      accepted_assets: [{ chain: "base", asset: "USDC" }],
      ...fields,
    });

  it("when an order is created, then it answers every seed field with a derived address per accepted asset", async () => {
    const answer = await order(writer, {
      accepted_assets: [
        { chain: "ethereum", asset: "USDC" },
        { chain: "base", asset: "USDC" },
      ],
      metadata: "cart 7",
    });
    expect(answer.status).toBe(201);
    const derived = new EvmAddressDeriver(TEST_XPUB);
    expect(answer.body).toMatchObject({
      merchant_order_id: "order-1",
      amount: "12.500000",
      requested_amount: "12.5",
      chain_amount: "12500000",
      settlement_asset: "USDC",
      status: "created",
      metadata: "cart 7",
      received_amount: "0.000000",
      accepted_assets: [
        { chain: "base", asset: "USDC" },
        { chain: "ethereum", asset: "USDC" },
      ],
      payment_instructions: [
        { chain: "base", asset: "USDC", address: derived.address(0) },
        { chain: "ethereum", asset: "USDC", address: derived.address(0) },
      ],
    });
    // Default expiry: one hour after creation (the app's clock and the database's differ by the request's time).
    const lifetime = Date.parse(answer.body.expires_at) - Date.parse(answer.body.created_at);
    expect(lifetime).toBeGreaterThan(3_500_000);
    expect(lifetime).toBeLessThanOrEqual(3_600_000);
  });

  it("when a hundred orders are created at once, then no two open orders share an address", async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => order(writer, { merchant_order_id: `c${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(201));
    const addresses = answers.map((a) => a.body.payment_instructions[0].address);
    expect(new Set(addresses).size).toBe(100);
  });

  it("when an order is canceled, then its address is released and a second cancel answers 409 changing nothing", async () => {
    const created = (await order(writer, { merchant_order_id: "to-cancel" })).body;
    const canceled = await call(writer, `/v1/payment-orders/${created.id}/cancel`, "POST");
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: created.id, status: "canceled" });
    const again = await call(writer, `/v1/payment-orders/${created.id}/cancel`, "POST");
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      statusCode: 409,
      message: "Only a created order can be canceled; this one is canceled",
      error: "Conflict",
    });
    expect((await call(writer, `/v1/payment-orders/${created.id}`)).body).toEqual(canceled.body);
    const address = created.payment_instructions[0].address;
    const held = await api.pool.query("SELECT order_id FROM deposit_addresses WHERE address = $1", [address]);
    expect(held.rows).toEqual([{ order_id: null }]);
    // Released, it rests a day before another order gets it (late payers must not pay a stranger).
    const soon = await order(writer, { merchant_order_id: "too-soon" });
    expect(soon.body.payment_instructions[0].address).not.toBe(address);
    await api.pool.query(
      "UPDATE deposit_addresses SET released_at = now() - interval '25 hours' WHERE address = $1",
      [address],
    );
    const next = await order(writer, { merchant_order_id: "reuses" });
    expect(next.body.payment_instructions[0].address).toBe(address);
  });

  it("when orders are listed, then most recent first, paged with has_more, filtered by status", async () => {
    const first = await call(reader, "/v1/payment-orders?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.items.map((o: { merchant_order_id: string }) => o.merchant_order_id)).toEqual([
      "reuses",
      "too-soon",
    ]);
    expect(first.body.has_more).toBe(true);
    const canceled = await call(reader, "/v1/payment-orders?status=canceled");
    expect(canceled.body).toMatchObject({ has_more: false, items: [{ merchant_order_id: "to-cancel" }] });
    const all = await call(reader, "/v1/payment-orders?limit=200");
    expect(all.body.items).toHaveLength(104);
    const tail = await call(reader, "/v1/payment-orders?offset=100&limit=50");
    expect(tail.body).toMatchObject({ has_more: false });
    expect(tail.body.items).toHaveLength(4);
    expect((await call(reader, "/v1/payment-orders")).body.items).toHaveLength(50);
  });

  it("when another organisation or environment asks, then it sees none of them and cannot cancel them", async () => {
    const mine = (await order(writer, { merchant_order_id: "private" })).body;
    for (const stranger of [otherOrganisation, testEnvironment]) {
      expect((await call(stranger, "/v1/payment-orders")).body).toEqual({ items: [], has_more: false });
      expect((await call(stranger, `/v1/payment-orders/${mine.id}`)).status).toBe(404);
      const cancel = await call(stranger, `/v1/payment-orders/${mine.id}/cancel`, "POST");
      expect(cancel.status).toBe(404);
    }
    expect((await call(writer, `/v1/payment-orders/${mine.id}`)).body.status).toBe("created");
  });

  it("when a key without billing:write creates or cancels, then 403; reading needs billing:read", async () => {
    expect((await order(reader)).status).toBe(403);
    const noBilling = await issueKey(database.db, "shop", "live", ["catalogue:read"]);
    expect((await call(noBilling, "/v1/payment-orders")).status).toBe(403);
    expect((await callApi(api.url, "/v1/payment-orders")).status).toBe(401);
  });

  it.each([
    [{ amount: "1e3" }, "amount: must be a positive decimal string"],
    [{ amount: "0.1234567" }, "amount: must be a positive decimal string"],
    [{ amount: "0" }, "amount: must be a positive decimal string"],
    [{ amount: 12.5 }, "amount: must be a decimal string"],
    [{ merchant_order_id: "" }, "merchant_order_id:"],
    [{ accepted_assets: [] }, "accepted_assets: must name at least one"],
    [{ accepted_assets: [{ chain: "base", asset: "ETH" }] }, "must be USDC"],
    [{ expires_at: "tomorrow" }, "expires_at: must be an ISO 8601 date-time"],
    [{ expires_at: "2020-01-01T00:00:00Z" }, "expires_at must be in the future"],
    [{ colour: "red" }, 'unknown body parameter "colour"'],
  ])("when an order is created with %j, then 400 naming the problem", async (fields, message) => {
    const answer = await order(writer, fields);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Bad Request");
    expect(answer.body.message).toContain(message);
  });

  it("when an order names a chain that is not configured, then 422 naming the accepted chains", async () => {
    const answer = await order(writer, { accepted_assets: [{ chain: "solana", asset: "USDC" }] });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(
      "accepted_assets: chain solana is not accepted here; accepted: base, ethereum (the operator's SETTLEMENT_CHAINS)",
    );
  });

  it.each([
    ["/v1/payment-orders?limit=0", "limit: must be a whole number from 1 to 200"],
    ["/v1/payment-orders?limit=201", "limit: must be a whole number from 1 to 200"],
    ["/v1/payment-orders?offset=-1", "offset:"],
    ["/v1/payment-orders?status=open", "status: must be one of created, paid, expired, canceled"],
    ["/v1/payment-orders?sort=asc", 'unknown query parameter "sort"'],
    ["/v1/payment-orders/not-a-uuid", "id: must be a payment order id"],
  ])("when %s is read, then 400 naming the problem", async (path, message) => {
    const answer = await call(reader, path);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
  });

  it("when an unknown order is canceled, then 404 with the error body", async () => {
    const answer = await call(
      writer,
      "/v1/payment-orders/00000000-0000-4000-8000-000000000000/cancel",
      "POST",
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe("Not Found");
  });
});
