import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  call as callApi,
  type IssuedKey,
  issueKey,
  type Replica,
  startReplica,
} from "../../support/accounts";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("bearer API keys on every route", () => {
  let database: TestDatabase;
  let api: Replica;
  let reader: IssuedKey;
  let admin: IssuedKey;
  let exporter: IssuedKey;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedServices(database.db, [{ name: "Quote API" }]);
    api = await startReplica(database);
    reader = await issueKey(database.db, "acme", "live", ["catalogue:read"]);
    admin = await issueKey(database.db, "acme", "live", ["keys:write", "catalogue:read"]);
    exporter = await issueKey(database.db, "acme", "live", ["catalogue:export"]);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const call = (path: string, init?: RequestInit) => callApi(api.url, path, init);

  it("when a protected route is called without a key, then 401 with WWW-Authenticate: Bearer and the error body", async () => {
    const answer = await call("/v1/api-keys");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="x402-catalogue"');
    expect(answer.body).toEqual({
      statusCode: 401,
      message: "This route needs an API key: send Authorization: Bearer <API key>",
      error: "Unauthorized",
    });
  });

  it.each([
    ["another scheme", "Basic dXNlcjpwYXNz"],
    ["Bearer without a key", "Bearer"],
    ["a key of the wrong shape", "Bearer sk_live_123"],
    ["a key for an unknown environment", `Bearer xcat_prod_${"a".repeat(43)}`],
  ])(
    "when the Authorization header holds %s, then 401 invalid_token on protected and public routes",
    async (_, header) => {
      for (const path of ["/v1/api-keys", "/v1/services"]) {
        const answer = await call(path, { headers: { authorization: header } });
        expect(answer.status).toBe(401);
        expect(answer.headers.get("www-authenticate")).toBe(
          'Bearer realm="x402-catalogue", error="invalid_token"',
        );
        expect(answer.body).toEqual({
          statusCode: 401,
          message: "The Authorization header must be 'Bearer <API key>' with a key issued by this service",
          error: "Unauthorized",
        });
      }
    },
  );

  it("when a well-formed key was never issued, then 401 on protected and public routes", async () => {
    const unknown = `xcat_live_${"Z".repeat(43)}`;
    for (const path of ["/v1/api-keys", "/v1/services"]) {
      const answer = await call(path, { headers: bearer(unknown) });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(answer.body).toEqual({
        statusCode: 401,
        message: "The API key is not valid",
        error: "Unauthorized",
      });
    }
  });

  it("when a key lacks the route's scope, then 403 naming the scope", async () => {
    const answer = await call("/v1/api-keys", { headers: bearer(reader.key) });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("www-authenticate")).toBe(
      'Bearer realm="x402-catalogue", error="insufficient_scope", scope="keys:write"',
    );
    expect(answer.body).toEqual({
      statusCode: 403,
      message: "This API key lacks the scope keys:write",
      error: "Forbidden",
    });
  });

  it("when a key without catalogue:read reads the public catalogue, then 403; without any key, then 200", async () => {
    expect((await call("/v1/services", { headers: bearer(exporter.key) })).status).toBe(403);
    expect((await call("/v1/services.csv", { headers: bearer(reader.key) })).status).toBe(403);
    expect((await call("/v1/services.csv", { headers: bearer(exporter.key) })).status).toBe(200);
    expect((await call("/v1/services", { headers: bearer(reader.key) })).status).toBe(200);
    expect((await call("/v1/services")).status).toBe(200);
  });

  it("when a key without catalogue:read calls the MCP server, then 403 as on the REST catalogue; with it or without a key, then 200", async () => {
    const listTools = (headers: Record<string, string>) =>
      call("/mcp", {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    const denied = await listTools(bearer(exporter.key));
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      statusCode: 403,
      message: "This API key lacks the scope catalogue:read",
      error: "Forbidden",
    });
    expect((await listTools(bearer(reader.key))).status).toBe(200);
    expect((await listTools({})).status).toBe(200);
  });

  it("when a key creates a key, then it is shown once and listings show only its prefix and last four", async () => {
    const created = await call("/v1/api-keys", {
      method: "POST",
      headers: { ...bearer(admin.key), "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["catalogue:read"] }),
    });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect(key).toMatch(/^xcat_live_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      environment: "live",
      prefix: "xcat_live_",
      last_four: key.slice(-4),
      scopes: ["catalogue:read"],
    });

    const listed = await call("/v1/api-keys", { headers: bearer(admin.key) });
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((entry: { id: string }) => entry.id === created.body.id);
    expect(item).toEqual({ ...created.body, key: undefined, last_used_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(10, 40));
    const stored = await database.db.apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(JSON.stringify(stored)).not.toContain(key.slice(10, 40));
    expect(Buffer.from(stored.keyHash).length).toBe(32);

    expect((await call("/v1/services", { headers: bearer(key) })).status).toBe(200);
  });

  it("when a key asks for a scope it does not hold or an unknown one, then 403 or 400", async () => {
    const post = (scopes: unknown) =>
      call("/v1/api-keys", {
        method: "POST",
        headers: { ...bearer(admin.key), "content-type": "application/json" },
        body: JSON.stringify({ scopes }),
      });
    const beyond = await post(["billing:write"]);
    expect(beyond.status).toBe(403);
    expect(beyond.body.message).toBe("A key can only grant scopes it holds; this key lacks billing:write");
    const unknown = await post(["everything"]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("scopes");
  });

  it("when a key is revoked, then it is refused with 401 on protected and public routes alike", async () => {
    const doomed = await issueKey(database.db, "acme", "live", ["catalogue:read", "keys:write"]);
    expect((await call("/v1/services", { headers: bearer(doomed.key) })).status).toBe(200);
    const revoked = await call(`/v1/api-keys/${doomed.id}`, { method: "DELETE", headers: bearer(admin.key) });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    for (const path of ["/v1/services", "/v1/api-keys", "/docs"]) {
      const answer = await call(path, { headers: bearer(doomed.key) });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        statusCode: 401,
        message: "The API key has been revoked",
        error: "Unauthorized",
      });
    }
  });

  it("when a key's id is not a UUID or not known, then 400 or 404", async () => {
    expect((await call("/v1/api-keys/nope", { method: "DELETE", headers: bearer(admin.key) })).status).toBe(
      400,
    );
    const missing = await call("/v1/api-keys/00000000-0000-4000-8000-000000000000", {
      method: "DELETE",
      headers: bearer(admin.key),
    });
    expect(missing.status).toBe(404);
  });
});
