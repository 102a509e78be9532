import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageRecorder } from "../../../src/accounts/usage";
import { createReadPool } from "../../../src/db/read-pool";
import { bearer, call, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

describe("environments, usage and secrecy of keys", () => {
  let database: TestDatabase;
  let api: Replica;
  let live: IssuedKey;
  let test: IssuedKey;
  let otherOrganisation: IssuedKey;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedServices(database.db, [{ name: "Quote API" }, { name: "Weather API" }]);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    api = await startReplica(database, { logger: pino({ level: "trace" }, sink) });
    const all = ["catalogue:read", "catalogue:export", "keys:write", "billing:read"] as const;
    live = await issueKey(database.db, "acme", "live", [...all]);
    test = await issueKey(database.db, "acme", "test", [...all]);
    otherOrganisation = await issueKey(database.db, "globex", "live", [...all]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const ids = (answer: { body: { items: { id: string }[] } }) =>
    answer.body.items.map((item) => item.id).sort();

  it("when live and test keys list keys, then each sees only its own environment of its own organisation", async () => {
    expect(ids(await call(api.url, "/v1/api-keys", { headers: bearer(live.key) }))).toEqual([live.id]);
    expect(ids(await call(api.url, "/v1/api-keys", { headers: bearer(test.key) }))).toEqual([test.id]);
    expect(ids(await call(api.url, "/v1/api-keys", { headers: bearer(otherOrganisation.key) }))).toEqual([
      otherOrganisation.id,
    ]);
  });

  it("when a key revokes a key of the other environment, then 404 and the key still works, both ways", async () => {
    for (const [actor, target] of [
      [test, live],
      [live, test],
      [otherOrganisation, live],
    ] as const) {
      const answer = await call(api.url, `/v1/api-keys/${target.id}`, {
        method: "DELETE",
        headers: bearer(actor.key),
      });
      expect(answer.status).toBe(404);
      expect((await call(api.url, "/v1/categories", { headers: bearer(target.key) })).status).toBe(200);
    }
  });

  it("when a key makes requests, then its usage counts them by day and route group, its environment only", async () => {
    const fresh = await issueKey(database.db, "initech", "test", [
      "catalogue:read",
      "catalogue:export",
      "billing:read",
    ]);
    const sibling = await issueKey(database.db, "initech", "live", ["catalogue:read", "billing:read"]);
    for (let i = 0; i < 7; i++) await call(api.url, "/v1/services", { headers: bearer(fresh.key) });
    for (let i = 0; i < 3; i++) await call(api.url, "/v1/tags", { headers: bearer(fresh.key) });
    const csv = await call(api.url, "/v1/services.csv", { headers: bearer(fresh.key) });
    expect(csv.status).toBe(200);
    await call(api.url, "/v1/tags", { headers: bearer(sibling.key) });

    const usage = await call(api.url, "/v1/usage", { headers: bearer(fresh.key) });
    expect(usage.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.body.items).toEqual([
      { day: today, api_key_id: fresh.id, route_group: "catalogue", requests: "10", csv_rows: "0" },
      { day: today, api_key_id: fresh.id, route_group: "exports", requests: "1", csv_rows: "2" },
      // The usage request counts itself.
      { day: today, api_key_id: fresh.id, route_group: "usage", requests: "1", csv_rows: "0" },
    ]);
    const again = await call(api.url, "/v1/usage", { headers: bearer(fresh.key) });
    expect(again.body.items).toContainEqual({
      day: today,
      api_key_id: fresh.id,
      route_group: "usage",
      requests: "2",
      csv_rows: "0",
    });
    const siblingUsage = await call(api.url, "/v1/usage", { headers: bearer(sibling.key) });
    expect(new Set(siblingUsage.body.items.map((item: { api_key_id: string }) => item.api_key_id))).toEqual(
      new Set([sibling.id]),
    );
    const listed = await database.db.apiKey.findUniqueOrThrow({ where: { id: fresh.id } });
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it("when requests fall either side of UTC midnight, then each is counted on its own day", async () => {
    const key = await issueKey(database.db, "umbrella", "live", ["catalogue:read"]);
    const pool = createReadPool(database.url, 1, testLogger);
    const recorder = new UsageRecorder(pool, testLogger, 3_600_000);
    try {
      for (const at of [
        "2026-11-27T23:59:59.999Z",
        "2026-11-28T00:00:00.000Z",
        "2026-11-27T12:00:00.000Z", // an earlier day again, after a later one
        "2026-11-28T23:59:59.999Z",
        "2026-11-29T00:00:00.001Z",
      ]) {
        recorder.recordRequest(key.id, "catalogue", new Date(at));
      }
      await recorder.flush();
      const rows = await database.db.$queryRaw<Array<{ day: string; requests: bigint }>>`
        SELECT day::text AS day, requests FROM api_usage WHERE api_key_id = ${key.id}::uuid ORDER BY day`;
      expect(rows.map((row) => [row.day, Number(row.requests)])).toEqual([
        ["2026-11-27", 2],
        ["2026-11-28", 2],
        ["2026-11-29", 1],
      ]);
    } finally {
      await recorder.close();
      await pool.end();
    }
  });

  it("when usage is asked with a bad range, then 400 names the parameter", async () => {
    const answer = await call(api.url, "/v1/usage?from=2026-12-01&to=2026-11-01", {
      headers: bearer(live.key),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("from");
  });

  it("when keys are created, used, refused and the database fails, then no key appears in logs or error bodies", async () => {
    const created = await call(api.url, "/v1/api-keys", {
      method: "POST",
      headers: { ...bearer(live.key), "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["catalogue:read"] }),
    });
    const secrets = [live.key, created.body.key as string];
    const bodies = [
      (await call(api.url, "/v1/api-keys", { headers: bearer(`${live.key.slice(0, -1)}x`) })).text,
      (await call(api.url, "/v1/services", { headers: { authorization: `Basic ${live.key}` } })).text,
    ];
    await database.db.$executeRawUnsafe("ALTER TABLE api_keys RENAME TO api_keys_away");
    try {
      // A key never used yet, so its lookup goes to the database (used keys are kept in memory).
      const failed = await call(api.url, "/v1/services", { headers: bearer(created.body.key as string) });
      expect(failed.status).toBe(500);
      bodies.push(failed.text);
    } finally {
      await database.db.$executeRawUnsafe("ALTER TABLE api_keys_away RENAME TO api_keys");
    }
    const logs = logLines.join("");
    expect(logs).toContain("unhandled error");
    for (const secret of secrets) {
      for (const text of [logs, ...bodies]) {
        expect(text).not.toContain(secret.slice(10));
        expect(text).not.toContain(secret.slice(-20));
      }
    }
  });
});
