import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_TOOLS } from "../../../src/mcp/server";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";

describe("GET /llms.txt and /llms-full.txt", () => {
  let database: TestDatabase;
  let api: TestApp;
  let paths: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    paths = Object.keys((await request(api.app).get("/openapi.json")).body.paths);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when /llms.txt is asked, then a markdown digest links every path of the OpenAPI document and every MCP tool", async () => {
    const response = await request(api.app).get("/llms.txt");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(response.text).toMatch(/^# x402 catalogue API\n\n> The catalogue of pay-per-call/);
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) expect(response.text).toContain(` ${path}](/openapi.json)`);
    for (const name of Object.keys(MCP_TOOLS)) expect(response.text).toContain(`\`${name}\``);
    expect(response.text).toContain("[Full digest](/llms-full.txt)");
  });

  it("when /llms-full.txt is asked, then each operation lists its parameters with their descriptions", async () => {
    const response = await request(api.app).get("/llms-full.txt");
    expect(response.status).toBe(200);
    expect(response.text).toContain(
      "  - `payable` (one of true, false): Only endpoints a standard x402 client can (true) or cannot (false) pay.",
    );
    expect(response.text).toMatch(/ {2}- `id` \(path; required\):/);
    expect(response.text).toMatch(/ {2}- `status` \(one of listed, delisted, all; default listed\)/);
    expect(response.text).toContain(MCP_TOOLS.search_endpoints.description);
  });

  it("when /llms.txt is asked, then it says how to authenticate and which operations need a key", async () => {
    const response = await request(api.app).get("/llms.txt");
    expect(response.text).toContain("## Authentication");
    expect(response.text).toContain("`Authorization: Bearer xcat_live_…`");
    expect(response.text).toMatch(
      /answers without a key:\nanonymous callers are rate-limited per client address/,
    );
    expect(response.text).toContain(
      "- [GET /v1/services](/openapi.json): Search and filter services. Public; a key sent must be valid with the scope catalogue:read.",
    );
    expect(response.text).toContain(
      "- [POST /v1/api-keys](/openapi.json): Create an API key. Needs an API key with the scope keys:write.\n" +
        '  Body (JSON), e.g. `{"scopes":["catalogue:read"]}`',
    );
  });

  it("when /llms-full.txt is asked, then services.csv is described as the route pages it", async () => {
    const response = await request(api.app).get("/llms-full.txt");
    expect(response.text).not.toContain("no paging");
    expect(response.text).toContain("offset and limit (1 to 1,000,000) page it as on the list");
    expect(response.text).toContain("join their values with ' | '");
  });

  it("when a query parameter is given, then 400 names it, as on every other route", async () => {
    const response = await request(api.app).get("/llms.txt?format=json");
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/format/);
  });
});
