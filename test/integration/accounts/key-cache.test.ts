import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearer, call, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/**
 * API processes keep verified keys in memory (src/accounts/key-cache.ts). These tests change keys
 * behind the cache's back (triggers off, so no notification) to show when memory is used and
 * that it is given up whenever it could be stale.
 */
describe("verified keys kept in memory by each API process", () => {
  let database: TestDatabase;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    replicas = [];
  });
  afterAll(async () => {
    await database.drop();
  });

  async function cachingReplica(): Promise<Replica> {
    const replica = await startReplica(database);
    replicas.push(replica);
    await expect.poll(() => replica.accounts.keys.caching()).toBe(true);
    return replica;
  }

  /** Revokes with the change triggers off: what a missed notification would look like. */
  async function revokeUnnoticed(id: string): Promise<void> {
    await database.db.$transaction([
      database.db.$executeRawUnsafe("SET LOCAL session_replication_role = replica"),
      database.db.$executeRawUnsafe("UPDATE api_keys SET revoked_at = now() WHERE id = $1::uuid", id),
    ]);
  }

  it("when a key was served once, then the next request is answered from memory (a change nobody notified goes unseen)", async () => {
    const replica = await cachingReplica();
    const { id, key } = await issueKey(database.db, "memory", "live", ["catalogue:read"]);
    expect((await call(replica.url, "/v1/tags", { headers: bearer(key) })).status).toBe(200);
    await revokeUnnoticed(id);
    // Why every real change notifies and revocations wait for acknowledgements:
    expect((await call(replica.url, "/v1/tags", { headers: bearer(key) })).status).toBe(200);
    // A process without the cache (a fresh one, before its lease) looks the key up and refuses it.
    const fresh = await startReplica(database);
    replicas.push(fresh);
    expect((await call(fresh.url, "/v1/tags", { headers: bearer(key) })).status).toBe(401);
  });

  it("when the notification connection is lost, then keys are looked up in Postgres again", async () => {
    const replica = await cachingReplica();
    const { id, key } = await issueKey(database.db, "lost listener", "live", ["catalogue:read"]);
    expect((await call(replica.url, "/v1/tags", { headers: bearer(key) })).status).toBe(200);
    await database.db.$queryRawUnsafe(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %api_keys_changed%'",
    );
    await revokeUnnoticed(id);
    await expect
      .poll(async () => (await call(replica.url, "/v1/tags", { headers: bearer(key) })).status, {
        timeout: 10_000,
      })
      .toBe(401);
  });

  it("when a key's plan changes its limit, then every process applies the new limit", async () => {
    const [a, b] = [await cachingReplica(), await cachingReplica()];
    await database.db.plan.create({ data: { id: "growing", requestsPerMinute: 50 } });
    await database.db.organisation.create({ data: { name: "growing shop", planId: "growing" } });
    const { key } = await issueKey(database.db, "growing shop", "live", ["catalogue:read"]);
    for (const replica of [a, b]) {
      const answer = await call(replica.url, "/v1/tags", { headers: bearer(key) });
      expect(answer.headers.get("ratelimit-limit")).toBe("50");
    }
    await database.db.plan.update({ where: { id: "growing" }, data: { requestsPerMinute: 500 } });
    for (const replica of [a, b]) {
      await expect
        .poll(async () =>
          (await call(replica.url, "/v1/tags", { headers: bearer(key) })).headers.get("ratelimit-limit"),
        )
        .toBe("500");
    }
  });

  it("when a process stops, then it leaves the readers a revocation waits for", async () => {
    const replica = await cachingReplica();
    expect(await database.db.apiKeyReader.count()).toBe(1);
    await replica.close();
    replicas = [];
    expect(await database.db.apiKeyReader.count()).toBe(0);
  });
});
