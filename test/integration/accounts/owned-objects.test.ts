import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES, type Scope } from "../../../src/accounts/scopes";
import { LIVENESS_PATH, READINESS_PATH } from "../../../src/http/health";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import {
  type Answer,
  callAs,
  type IssuedKey,
  issueKey,
  type Replica,
  startReplica,
} from "../../support/accounts";
import { testChain } from "../../support/billing";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { concretePath, registeredRoutes } from "../../support/routes";

/**
 * What the route policy alone cannot show: objects belong to one organisation's environment,
 * a key grants only scopes it holds, and a revoked key opens nothing. (Every route's scope and
 * anonymous refusals are walked in route-forms.test.ts.)
 */
describe("owned objects, minted scopes and revoked keys", () => {
  let database: TestDatabase;
  let api: Replica;
  let owner: IssuedKey;
  let strangers: Array<[string, IssuedKey]>;
  const ids = { key: "", endpoint: "", order: "", subscription: "" };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database, {
      settlementChains: [testChain()],
      webhooks: { allowedNetworks: ["127.0.0.0/8"], secretKeys: SecretKeyRing.ephemeral() },
    });
    owner = await issueKey(database.db, "owner", "live", [...SCOPES]);
    strangers = [
      ["another organisation", await issueKey(database.db, "stranger", "live", [...SCOPES])],
      ["the owner's test environment", await issueKey(database.db, "owner", "test", [...SCOPES])],
    ];
    const created = async (path: string, body: unknown) => {
      const answer = await callAs(api.url, owner, path, "POST", body);
      expect(answer.status, `${path}: ${answer.text}`).toBe(201);
      return answer.body;
    };
    ids.key = (await created("/v1/api-keys", { scopes: ["catalogue:read"] })).id;
    ids.endpoint = (
      await created("/v1/webhook-endpoints", {
        url: "http://127.0.0.1:9/hook",
        enabled_events: ["*"],
      })
    ).id;
    ids.order = (
      await created("/v1/payment-orders", {
        merchant_order_id: "order-1",
        amount: "1.5",
        accepted_assets: [{ chain: "base", asset: "USDC" }],
      })
    ).id;
    const subscribed = await created("/v1/merchant/subscriptions", {
      merchant_user_id: "user-1",
      plan_id: "starter",
    });
    ids.subscription = subscribed.subscription.id;
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const owned = (): Array<[string, string, unknown?]> => [
    ["DELETE", `/v1/api-keys/${ids.key}`],
    ["GET", `/v1/webhook-endpoints/${ids.endpoint}`],
    ["PATCH", `/v1/webhook-endpoints/${ids.endpoint}`, { description: "taken" }],
    ["POST", `/v1/webhook-endpoints/${ids.endpoint}/rotate-secret`],
    ["POST", `/v1/webhook-endpoints/${ids.endpoint}/test`],
    ["GET", `/v1/webhook-endpoints/${ids.endpoint}/deliveries`],
    ["DELETE", `/v1/webhook-endpoints/${ids.endpoint}`],
    ["GET", `/v1/payment-orders/${ids.order}`],
    ["POST", `/v1/payment-orders/${ids.order}/cancel`],
    ["GET", `/v1/merchant/subscriptions/${ids.subscription}`],
    ["POST", `/v1/merchant/subscriptions/${ids.subscription}/change-plan`, { plan_id: "pro" }],
    ["POST", `/v1/merchant/subscriptions/${ids.subscription}/cancel`, { at_period_end: false }],
  ];
  const lists: Array<[string, (answer: Answer) => unknown[]]> = [
    ["/v1/api-keys", (answer) => answer.body.items],
    ["/v1/webhook-endpoints", (answer) => answer.body.items],
    ["/v1/payment-orders", (answer) => answer.body.items],
    ["/v1/merchant/subscriptions", (answer) => answer.body.items],
  ];

  it("when another organisation or environment reads or changes an owned object, then 404 and it is unchanged", async () => {
    for (const [who, stranger] of strangers) {
      for (const [method, path, body] of owned()) {
        const answer = await callAs(api.url, stranger, path, method, body);
        expect(answer.status, `${who}: ${method} ${path}`).toBe(404);
      }
      for (const [path, items] of lists) {
        const listed = items(await callAs(api.url, stranger, path)) as Array<{ id: string }>;
        const theirs = listed.filter((item) => Object.values(ids).includes(item.id));
        expect(theirs, `${who}: GET ${path}`).toEqual([]);
      }
    }
    const read = (path: string) => callAs(api.url, owner, path).then((answer) => answer.body);
    expect((await read(`/v1/webhook-endpoints/${ids.endpoint}`)).description).toBe("");
    expect((await read(`/v1/payment-orders/${ids.order}`)).status).toBe("created");
    expect((await read(`/v1/merchant/subscriptions/${ids.subscription}`)).plan_id).toBe("starter");
    const keys = (await read("/v1/api-keys")).items as Array<{ id: string; revoked_at: string | null }>;
    expect(keys.find((key) => key.id === ids.key)?.revoked_at).toBeNull();
  });

  it.each(SCOPES.filter((scope) => scope !== "keys:write"))(
    "when a key holding keys:write alone mints a key with %s, then 403 and no key is made",
    async (scope: Scope) => {
      const minter = await issueKey(database.db, `minter ${scope}`, "live", ["keys:write"]);
      const answer = await callAs(api.url, minter, "/v1/api-keys", "POST", { scopes: ["keys:write", scope] });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(`A key can only grant scopes it holds; this key lacks ${scope}`);
      expect((await callAs(api.url, minter, "/v1/api-keys")).body.items).toHaveLength(1);
    },
  );

  /** Load balancers' liveness and readiness checks, answered before any key is looked at. */
  const ANSWERED_BEFORE_THE_GUARD = new Set([LIVENESS_PATH, READINESS_PATH]);

  it("when a key is revoked, then every route refuses it with 401", async () => {
    const doomed = await issueKey(database.db, "owner", "live", [...SCOPES]);
    expect((await callAs(api.url, owner, `/v1/api-keys/${doomed.id}`, "DELETE")).status).toBe(200);
    const wrong: string[] = [];
    for (const route of registeredRoutes(api.app).filter(
      (candidate) => !ANSWERED_BEFORE_THE_GUARD.has(candidate.path),
    )) {
      const path = concretePath(route.path);
      const answer = await callAs(api.url, doomed, path, route.method);
      if (answer.status !== 401 || answer.body?.message !== "The API key has been revoked") {
        wrong.push(`${route.method} ${path}: ${answer.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
