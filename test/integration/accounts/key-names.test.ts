import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, call, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("API key names", () => {
  let database: TestDatabase;
  let api: Replica;
  let admin: IssuedKey;
  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database);
    admin = await issueKey(database.db, "acme", "live", ["keys:write", "catalogue:read"]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const create = (body: unknown) =>
    call(api.url, "/v1/api-keys", {
      method: "POST",
      headers: { ...bearer(admin.key), "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("when a key is created with a name, then the answer and the list show it; unnamed keys show null", async () => {
    const created = await create({ name: "billing dashboard", scopes: ["catalogue:read"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "billing dashboard", scopes: ["catalogue:read"] });

    const listed = await call(api.url, "/v1/api-keys", { headers: bearer(admin.key) });
    const items = listed.body.items as { id: string; name: string | null }[];
    expect(items.find((item) => item.id === created.body.id)?.name).toBe("billing dashboard");
    expect(items.find((item) => item.id === admin.id)?.name).toBeNull();
  });

  it.each([
    ["longer than 100 characters", "x".repeat(101), "must be at most 100 characters"],
    ["a control character", "line\nbreak", "must not contain control characters"],
    ["empty", "", "must not be empty"],
    ["not a string", 42, "must be a string"],
  ])("when the name is %s, then 400 names the field and the rule", async (_, name, rule) => {
    const answer = await create({ name, scopes: ["catalogue:read"] });
    expect(answer.status).toBe(400);
    expect(String(answer.body.message)).toContain("name");
    expect(String(answer.body.message)).toContain(rule);
  });
});
