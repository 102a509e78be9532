import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../../src/accounts/scopes";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import { callAs, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const ORDER = {
  merchant_order_id: "order-1",
  amount: "1.5",
  accepted_assets: [{ chain: "base", asset: "USDC" }],
};
const HOOK = { url: "http://127.0.0.1:9/hook", enabled_events: ["*"] };

describe("NUL characters in JSON bodies", () => {
  let database: TestDatabase;
  let api: Replica;
  let key: IssuedKey;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database, {
      settlementChains: [testChain()],
      webhooks: { allowedNetworks: ["127.0.0.0/8"], secretKeys: SecretKeyRing.ephemeral() },
    });
    key = await issueKey(database.db, "acme", "live", [...SCOPES]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it.each([
    ["POST", "/v1/payment-orders", "merchant_order_id", { ...ORDER, merchant_order_id: "order\u0000-1" }],
    ["POST", "/v1/payment-orders", "metadata", { ...ORDER, metadata: "note\u0000" }],
    [
      "POST",
      "/v1/payment-orders",
      "accepted_assets[0].chain",
      { ...ORDER, accepted_assets: [{ chain: "base\u0000", asset: "USDC" }] },
    ],
    ["POST", "/v1/merchant/subscriptions", "plan_id", { merchant_user_id: "user-1", plan_id: "pro\u0000" }],
    ["POST", "/v1/webhook-endpoints", "description", { ...HOOK, description: "mine\u0000" }],
    ["POST", "/v1/webhook-endpoints", "url", { ...HOOK, url: "http://127.0.0.1:9/ho\u0000ok" }],
    ["POST", "/v1/api-keys", "scopes[0]", { scopes: ["catalogue:read\u0000"] }],
    ["POST", "/v1/api-keys", "body: keys", { "scopes\u0000": [] }],
    [
      "POST",
      "/mcp",
      "params.arguments.q",
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_services", arguments: { q: "a\u0000" } },
      },
    ],
  ] as const)("when %s %s holds a NUL in %s, then 400 names it", async (method, path, field, body) => {
    const answer = await callAs(api.url, key, path, method, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      statusCode: 400,
      message: expect.stringMatching(new RegExp(`^${field.replace(/[[\]]/g, "\\$&")}:? .*NUL`)),
      error: "Bad Request",
    });
  });

  it("when a body holds no NUL, then the same route answers as before", async () => {
    const answer = await callAs(api.url, key, "/v1/payment-orders", "POST", ORDER);
    expect(answer.status).toBe(201);
  });
});
