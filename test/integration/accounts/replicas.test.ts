import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearer, call, issueKey, type Replica, startReplica } from "../../support/accounts";
import type { TestAppOptions } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** Two API processes on one database, as two replicas behind a load balancer. */
describe("two API replicas on one database", () => {
  let database: TestDatabase;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    replicas = [];
    await database.db.rateLimitWindow.deleteMany();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function twoReplicas(options: TestAppOptions = {}): Promise<[Replica, Replica]> {
    replicas = [await startReplica(database, options), await startReplica(database, options)];
    return replicas as [Replica, Replica];
  }

  it("when a key is revoked through one replica, then the very next request on either replica is refused", async () => {
    const [a, b] = await twoReplicas();
    const admin = await issueKey(database.db, "acme", "live", ["keys:write", "catalogue:read"]);
    const doomed = await issueKey(database.db, "acme", "live", ["catalogue:read"]);
    // Both replicas keep verified keys in memory and have just served this one from there. The
    // cache is trusted once its LISTEN connection is up, which took over vitest's default 1 s poll
    // once in a full run on a loaded machine: a precondition, so it gets time; the assertions
    // about revocation below are unchanged.
    for (const replica of [a, b])
      await expect.poll(() => replica.accounts.keys.caching(), { timeout: 10_000 }).toBe(true);
    for (const replica of [a, b, a, b])
      expect((await call(replica.url, "/v1/categories", { headers: bearer(doomed.key) })).status).toBe(200);
    const revoked = await call(a.url, `/v1/api-keys/${doomed.id}`, {
      method: "DELETE",
      headers: bearer(admin.key),
    });
    expect(revoked.status).toBe(200);
    for (const replica of [b, a]) {
      const answer = await call(replica.url, "/v1/categories", { headers: bearer(doomed.key) });
      expect(answer.status).toBe(401);
      expect(answer.body.message).toBe("The API key has been revoked");
    }
  });

  it("when anonymous requests alternate between replicas, then they share one limit and the one over it gets 429", async () => {
    const [a, b] = await twoReplicas({ accountSettings: { anonymousRequestsPerMinute: 3 } });
    const statuses: number[] = [];
    for (const replica of [a, b, a]) {
      const answer = await call(replica.url, "/v1/categories");
      statuses.push(answer.status);
      expect(answer.headers.get("ratelimit-limit")).toBe("3");
      expect(answer.headers.get("ratelimit-policy")).toBe("3;w=60");
    }
    expect(statuses).toEqual([200, 200, 200]);
    const over = await call(b.url, "/v1/categories");
    expect(over.status).toBe(429);
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get("ratelimit-reset")).toBe(String(retryAfter));
    expect(over.body).toEqual({
      statusCode: 429,
      message: "Too many requests: the limit is 3 a minute; retry after the Retry-After seconds",
      error: "Too Many Requests",
    });
    expect((await call(a.url, "/v1/categories")).status).toBe(429);
  });

  it("when a key's plan allows 2 a minute, then the key gets 2 across both replicas while anonymous callers still pass", async () => {
    const [a, b] = await twoReplicas({ accountSettings: { anonymousRequestsPerMinute: 100 } });
    await database.db.plan.create({ data: { id: "tiny", requestsPerMinute: 2 } });
    const { id } = await database.db.organisation.create({ data: { name: "small shop", planId: "tiny" } });
    const key = (await issueKey(database.db, "small shop", "test", ["catalogue:read"])).key;
    expect(id).toBeDefined();
    const statuses = [];
    for (const replica of [a, b, a, b])
      statuses.push((await call(replica.url, "/v1/tags", { headers: bearer(key) })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const anonymous = await call(b.url, "/v1/tags");
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("ratelimit-limit")).toBe("100");
  });

  it("when 60 requests race on two replicas against a limit of 40, then exactly 40 pass", async () => {
    const [a, b] = await twoReplicas({ accountSettings: { anonymousRequestsPerMinute: 40 } });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call((i % 2 === 0 ? a : b).url, "/v1/tags")),
    );
    const passed = answers.filter((answer) => answer.status === 200).length;
    expect(passed).toBe(40);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(20);
  });

  it("when a key is used on both replicas, then its usage counts every request once", async () => {
    const [a, b] = await twoReplicas();
    const key = await issueKey(database.db, "acme", "test", ["catalogue:read", "billing:read"]);
    for (let i = 0; i < 9; i++)
      await call((i % 3 === 0 ? a : b).url, "/v1/tags", { headers: bearer(key.key) });
    await b.accounts.usage.flush();
    const usage = await call(a.url, "/v1/usage", { headers: bearer(key.key) });
    expect(usage.body.items).toEqual([
      expect.objectContaining({ api_key_id: key.id, route_group: "catalogue", requests: "9" }),
      expect.objectContaining({ api_key_id: key.id, route_group: "usage", requests: "1" }),
    ]);
  });

  it("when the limit is far away, then a replica reserves points in blocks and RateLimit-Remaining still falls", async () => {
    const [a] = await twoReplicas({ accountSettings: { anonymousRequestsPerMinute: 10_000 } });
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++)
      remaining.push(Number((await call(a.url, "/v1/tags")).headers.get("ratelimit-remaining")));
    expect(remaining).toEqual([...remaining].sort((x, y) => y - x));
    const rows = await database.db.rateLimitWindow.findMany();
    expect(rows).toHaveLength(1);
    // One reservation (a sixteenth of 10,000, capped at 100) served all five requests: one write.
    expect(rows[0]?.points).toBe(100);
  });

  it("when TRUST_PROXY names the proxy, then clients behind it are limited apart; otherwise X-Forwarded-For is ignored", async () => {
    const [trusting] = await twoReplicas({
      trustProxy: ["loopback"],
      accountSettings: { anonymousRequestsPerMinute: 1 },
    });
    const from = (address: string) => ({ headers: { "x-forwarded-for": address } });
    expect((await call(trusting.url, "/v1/tags", from("203.0.113.1"))).status).toBe(200);
    expect((await call(trusting.url, "/v1/tags", from("203.0.113.2"))).status).toBe(200);
    expect((await call(trusting.url, "/v1/tags", from("203.0.113.1"))).status).toBe(429);
    await Promise.all(replicas.map((replica) => replica.close()));
    await database.db.rateLimitWindow.deleteMany();
    const [direct] = await twoReplicas({ accountSettings: { anonymousRequestsPerMinute: 1 } });
    expect((await call(direct.url, "/v1/tags", from("203.0.113.1"))).status).toBe(200);
    expect((await call(direct.url, "/v1/tags", from("203.0.113.2"))).status).toBe(429);
  });
});
