import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpToolUrl } from "../../../src/mcp-tools/tool-url";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { X402McpServer } from "../../support/x402-mcp-server";

/**
 * A seller registers an MCP server (method MCP): its paid tools, probed with the MCP SDK client,
 * become endpoints keyed by server URL and tool name; a tool that asks no payment is not listed.
 */
describe("registering an MCP server with paid tools", () => {
  let database: TestDatabase;
  let api: TestApp;
  const server = new X402McpServer();
  /** The server under a made-up name, which the test registrar resolves to loopback. */
  const named = (path = "/mcp") => server.url(path).replace("127.0.0.1", "mcp.example");

  beforeAll(async () => {
    database = await createTestDatabase();
    await server.start();
    api = createTestApp(database);
  });
  afterAll(async () => {
    await api?.close();
    await server.stop();
    await database?.drop();
  });

  it("when an MCP server URL is registered with method MCP, then each paid tool is listed as an MCP endpoint and found with transport=mcp", async () => {
    const answer = await request(api.app).post("/v1/registrations").send({ url: named(), method: "MCP" });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ kind: "url", method: "MCP", state: "listed" });
    const listed = (answer.body.listed as { method: string; url: string }[]).map(
      (e) => `${e.method} ${e.url}`,
    );
    expect(listed.sort()).toEqual([
      `MCP ${mcpToolUrl(named(), "financial_analysis")}`,
      `MCP ${mcpToolUrl(named(), "weather")}`,
    ]);

    const found = await request(api.app).get("/v1/endpoints?transport=mcp").expect(200);
    const urls = (found.body.items as { url: string; method: string; transport: string }[]).map((e) => ({
      url: e.url,
      method: e.method,
      transport: e.transport,
    }));
    expect(urls).toContainEqual({
      url: mcpToolUrl(named(), "financial_analysis"),
      method: "MCP",
      transport: "mcp",
    });
    const http = await request(api.app).get("/v1/endpoints?transport=http").expect(200);
    expect(http.body.items).toEqual([]);
  });

  it("when a URL registered with method MCP is no MCP server, then it is refused with the probe's reason", async () => {
    const answer = await request(api.app)
      .post("/v1/registrations")
      .send({ url: named("/nothing-here"), method: "MCP" })
      .expect(422);
    expect(answer.body.registration).toMatchObject({ state: "refused", method: "MCP" });
    expect(answer.body.message).toMatch(/^Not listed: MCP http:\/\/mcp\.example:\d+\/nothing-here /);
  });
});
