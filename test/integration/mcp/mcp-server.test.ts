import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { connectMcp, type McpConnection } from "../../support/mcp";
import { firstEndpointId, seedBazaarMember, seedPaymentOptions } from "../../support/payments";
import { entryPointArgs } from "../../support/processes";

const REPO = path.resolve(import.meta.dirname, "../../..");
const TOOLS = [
  "get_service",
  "get_service_history",
  "list_categories",
  "preflight_endpoint",
  "register_resource",
  "search_endpoints",
  "search_services",
];

interface Page {
  items: Record<string, unknown>[];
  has_more: boolean;
  total: number;
}

/** How REST reads a q that matches as typed. */
const AS_TYPED = { corrected: [], dropped: [], partial: false };

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

describe("the MCP server, through the SDK's own client", () => {
  let database: TestDatabase;
  let api: TestApp;
  let mcp: McpConnection;
  let client: Client;
  let quotesId: string;
  let quotesMemberId: string;
  let baseUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [quotesId] = await seedServices(database.db, [
      {
        name: "Stock Quotes",
        domain: "quotes.test",
        category: "Finance",
        description: "Real-time stock quotes",
        volumeUsdc30d: "900",
        endpoints: [
          { method: "GET", url: "https://quotes.test/v1/quote", description: "Latest stock quote" },
        ],
        history: [
          { observedFrom: new Date("2026-01-01T00:00:00Z"), observedTo: new Date("2026-01-02T00:00:00Z") },
        ],
      },
      {
        name: "Weather",
        domain: "weather.test",
        category: "Weather",
        volumeUsdc30d: "100",
        endpoints: [{ method: "GET", url: "https://weather.test/v1/now", description: "Weather now" }],
      },
    ]);
    await seedPaymentOptions(database.db, await firstEndpointId(database.db, quotesId), [
      {
        sourceId: (await database.db.service.findUniqueOrThrow({ where: { id: quotesId } })).sourceId,
        network: "eip155:8453",
        priceUsdc: "0.01",
        amountAtomic: "10000",
        payTo: "0x1",
      },
    ]);
    await database.db.paymentOption.updateMany({ data: { payable: true } });
    // A second source's row of the same entry (no endpoints of its own, so the entry's detail and
    // the endpoint search stay as they were): its id is one more id REST answers the entry by.
    quotesMemberId = await seedBazaarMember(database.db, quotesId, []);
    mcp = await connectMcp(api.app, "catalogue-test");
    ({ client, baseUrl } = mcp);
  });
  afterAll(async () => {
    await mcp.close();
    await api.close();
    await database.drop();
  });

  it("when the tools are listed over HTTP, then all seven come, each with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      // Preflight calls the endpoint (and records the probe) and registering writes the catalogue:
      // the tools that are not read-only.
      expect(tool.annotations?.readOnlyHint).toBe(
        !["preflight_endpoint", "register_resource"].includes(tool.name),
      );
    }
    const search = tools.find((t) => t.name === "search_services");
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["q", "max_price", "fields"]),
    );
  });

  it("when services are searched with fields, then a small page of just those fields comes", async () => {
    const result = await client.callTool({
      name: "search_services",
      arguments: { q: "stock", fields: ["id", "name"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      items: [{ id: quotesId, name: "Stock Quotes" }],
      has_more: false,
      total: 1,
      query: AS_TYPED,
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it("when no limit is given, then the page is the MCP default (10), and limit pages like REST", async () => {
    const result = await client.callTool({
      name: "search_services",
      arguments: { limit: 1, fields: ["name"] },
    });
    expect(result.structuredContent).toEqual({ items: [{ name: "Stock Quotes" }], has_more: true, total: 2 });
  });

  it("when endpoints are searched for payable ones, then only those come, with their verdict", async () => {
    const result = await client.callTool({
      name: "search_endpoints",
      arguments: { q: "quote", payable: "true", fields: ["url", "payability"] },
    });
    const page = result.structuredContent as Page;
    expect(page.items).toEqual([
      {
        url: "https://quotes.test/v1/quote",
        payability: { payable: true, decided_by: "directory", reasons: [] },
      },
    ]);
  });

  it("when a search's words are misspelt or partly match, then the tool says how q was read, as REST does", async () => {
    const cases = [
      ["search_services", "/v1/services", "stok", "name"],
      ["search_endpoints", "/v1/endpoints", "quote weather", "url"],
    ] as const;
    const readings = [];
    for (const [name, path, q, field] of cases) {
      const result = await client.callTool({ name, arguments: { q, fields: [field] } });
      expect(result.isError, name).toBeFalsy();
      const rest = await fetch(`${baseUrl}${path}?q=${encodeURIComponent(q)}&limit=10`);
      const body = (await rest.json()) as { total: number; query: unknown };
      const page = result.structuredContent as Page & { query: unknown };
      expect(page.query, name).toEqual(body.query);
      expect(page.total, name).toBe(body.total);
      readings.push(page.query);
    }
    expect(readings).toEqual([
      { corrected: [{ word: "stok", to: expect.arrayContaining(["stock"]) }], dropped: [], partial: false },
      { corrected: [], dropped: [], partial: true },
    ]);
  });

  it("when max_price leaves nothing, then the answer carries REST's hint about include_unpriced", async () => {
    const result = await client.callTool({ name: "search_services", arguments: { max_price: "0.001" } });
    expect(result.structuredContent).toMatchObject({
      items: [],
      total: 0,
      hint: "max_price hides entries with no known price: add include_unpriced=true to see them",
    });
  });

  it("when a search has no q, then no reading comes (as in REST)", async () => {
    const result = await client.callTool({ name: "search_endpoints", arguments: { fields: ["url"] } });
    expect(result.structuredContent).not.toHaveProperty("query");
  });

  it("when a service is asked by another row's id of its entry, then the entry's detail comes, as in REST", async () => {
    const result = await client.callTool({ name: "get_service", arguments: { id: quotesMemberId } });
    expect(result.isError).toBeFalsy();
    const rest = await fetch(`${baseUrl}/v1/services/${quotesMemberId}`);
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(await rest.json());
    expect(result.structuredContent).toMatchObject({ id: quotesId, name: "Stock Quotes" });
    const history = await client.callTool({ name: "get_service_history", arguments: { id: quotesMemberId } });
    expect((history.structuredContent as Page).items).toEqual([
      expect.objectContaining({ observed_from: "2026-01-01T00:00:00.000Z" }),
    ]);
  });

  it("when an id is no service id at all, then the tools answer not found (as REST's 404), not a bad argument", async () => {
    for (const name of ["get_service", "get_service_history"]) {
      const result = await client.callTool({ name, arguments: { id: "not-a-uuid" } });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toBe("No service with id not-a-uuid");
    }
    expect((await fetch(`${baseUrl}/v1/services/not-a-uuid`)).status).toBe(404);
  });

  it("when a service is read, then its detail comes; an unknown id is an error naming it", async () => {
    const found = await client.callTool({
      name: "get_service",
      arguments: { id: quotesId, fields: ["name", "endpoints"] },
    });
    expect(found.structuredContent).toMatchObject({
      name: "Stock Quotes",
      endpoints: [{ url: "https://quotes.test/v1/quote", payment_options: [{ price_usdc: "0.01" }] }],
    });
    const missing = "00000000-0000-4000-8000-000000000000";
    const unknown = await client.callTool({ name: "get_service", arguments: { id: missing } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(`No service with id ${missing}`);
  });

  it("when history and categories are asked, then they answer like REST", async () => {
    const history = await client.callTool({ name: "get_service_history", arguments: { id: quotesId } });
    expect((history.structuredContent as Page).items).toEqual([
      expect.objectContaining({ observed_from: "2026-01-01T00:00:00.000Z" }),
    ]);
    const categories = await client.callTool({ name: "list_categories", arguments: {} });
    expect((categories.structuredContent as Page).items).toEqual([
      { category: "Finance", service_count: 1 },
      { category: "Weather", service_count: 1 },
    ]);
  });

  it("when /mcp is asked with GET, then 405 says MCP clients POST (the server keeps no sessions)", async () => {
    const response = await fetch(`${baseUrl}/mcp`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("when an argument breaks the REST schema's rules, then the tool answers an error naming it", async () => {
    for (const [name, args, words] of [
      ["search_services", { limit: 500 }, /limit/],
      ["search_services", { sort: "relevance" }, /relevance needs q/],
      ["search_endpoints", { payable: "yes" }, /payable/],
      ["search_services", { colour: "red" }, /colour/],
      ["get_service", { id: "x", fields: ["colour"] }, /fields/],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toMatch(words);
    }
  });

  it("when the stdio server (npm run mcp) is started by a client, then it answers the same tools", async () => {
    const stdio = new Client({ name: "catalogue-test-stdio", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: entryPointArgs("jobs/mcp.ts"),
      cwd: REPO,
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: database.url, LOG_LEVEL: "warn" },
      stderr: "pipe",
    });
    await stdio.connect(transport);
    try {
      expect((await stdio.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      const result = await stdio.callTool({
        name: "search_services",
        arguments: { q: "weather", fields: ["name"] },
      });
      expect(result.structuredContent).toEqual({
        items: [{ name: "Weather" }],
        has_more: false,
        total: 1,
        query: AS_TYPED,
      });
    } finally {
      await stdio.close();
    }
  }, 60_000);
});
