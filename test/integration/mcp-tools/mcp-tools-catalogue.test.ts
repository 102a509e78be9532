import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpToolUrl } from "../../../src/mcp-tools/tool-url";
import { sweepOnce } from "../../../src/probe/sweep-once";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { libraryMcpItem } from "../../fixtures/bazaar/mcp-items";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce, ran } from "../../support/crawl";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { testLogger } from "../../support/logger";
import { testProbeSettings } from "../../support/probe";
import { X402McpServer } from "../../support/x402-mcp-server";

describe("paid MCP tools in the catalogue: from a discovery feed, probed, found with transport=mcp", () => {
  let database: TestDatabase;
  let api: TestApp;
  const feed = new FixtureFeed();
  const mcp = new X402McpServer();
  let toolUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    await mcp.start();
    await feed.start();
    toolUrl = mcpToolUrl(mcp.url(), "financial_analysis");
    feed.items = [
      libraryMcpItem(mcp.url(), "financial_analysis"),
      v2Item("https://weather.example/forecast"),
    ];
    ran(await crawlFeedOnce(database.db, database.url, feed.url));
    const summary = await sweepOnce({
      db: database.db,
      settings: testProbeSettings(),
      logger: testLogger,
      signal: new AbortController().signal,
    });
    expect(summary.outcomes.challenge).toBe(1);
    api = createTestApp(database);
  });
  afterAll(async () => {
    await feed.stop();
    await mcp.stop();
    await database.drop();
  });

  const endpoints = async (query: string) => {
    const response = await request(api.app).get(`/v1/endpoints?${query}`);
    expect(response.status).toBe(200);
    return response.body.items as Record<string, unknown>[];
  };

  it("when the feed's mcp item is stored, then its endpoint is the tool at the server's URL with transport mcp", async () => {
    const row = await database.db.endpoint.findFirstOrThrow({ where: { method: "MCP" } });
    expect(row).toMatchObject({ url: toolUrl, transport: "mcp" });
    const http = await database.db.endpoint.findFirstOrThrow({ where: { method: "GET" } });
    expect(http.transport).toBe("http");
  });

  it("when endpoints are searched with transport=mcp, then only the probed tool comes, with its live challenge", async () => {
    const [tool, ...rest] = await endpoints("transport=mcp");
    expect(rest).toEqual([]);
    expect(tool).toMatchObject({
      method: "MCP",
      transport: "mcp",
      url: toolUrl,
      verified: true,
      payability: { payable: true, decided_by: "live_challenge" },
      last_probe: { outcome: "challenge", status_code: 402 },
      call: { source: "live_challenge", format: "mcp_tool" },
    });
    expect(tool?.payment_options).toContainEqual(
      expect.objectContaining({ network: "eip155:84532", price_usdc: "0.1" }),
    );
  });

  it("when the tool's name is searched, then the tool is found (the URL's words include its fragment)", async () => {
    const found = await endpoints("q=financial%20analysis&transport=mcp");
    expect(found.map((e) => e.url)).toEqual([toolUrl]);
  });

  it("when endpoints are searched with transport=http, then the tool is left out", async () => {
    const found = await endpoints("transport=http");
    expect(found.map((e) => e.url)).toEqual(["https://weather.example/forecast"]);
    expect(found[0]?.transport).toBe("http");
  });

  it("when services are filtered with transport=mcp, in the list and the CSV, then only the MCP server's service comes", async () => {
    const list = await request(api.app).get("/v1/services?transport=mcp");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].endpoints).toEqual([
      expect.objectContaining({ method: "MCP", transport: "mcp", url: toolUrl }),
    ]);
    const csv = await request(api.app).get("/v1/services.csv?transport=mcp");
    expect(csv.status).toBe(200);
    const [header = [], ...rows] = parseCsv(csv.text);
    expect(rows.map((row) => row[header.indexOf("domain")])).toEqual(["127.0.0.1"]);
  });

  it("when transport names something else, then the request is refused with a clear 400", async () => {
    const response = await request(api.app).get("/v1/endpoints?transport=grpc");
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/transport/);
  });
});
