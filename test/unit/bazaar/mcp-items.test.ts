import { describe, expect, it } from "vitest";
import { parseBazaarItem, parseBazaarPage } from "../../../src/sources/bazaar/parse";
import { groupIntoServices } from "../../../src/sources/bazaar/services";
import { libraryMcpItem, specMcpItem, uriOnlyMcpItem } from "../../fixtures/bazaar/mcp-items";

describe("discovery items of type mcp", () => {
  it("when the spec's MCP example is read, then it is the tool at its server's URL, method MCP, its input schema as call", () => {
    const item = parseBazaarItem(specMcpItem(), 2);
    expect(item).toMatchObject({
      resourceUrl: "https://api.example.com/mcp#financial_analysis",
      origin: "https://api.example.com",
      host: "api.example.com",
      method: "MCP",
      description: "Advanced AI-powered financial tools",
      warnings: [],
      call: {
        format: "bazaar_extension",
        input: { type: "mcp", tool: "financial_analysis", inputSchema: { required: ["ticker"] } },
      },
    });
    expect(typeof item !== "string" && item.paymentOptions[0]?.price_usdc).toBe("0.1");
  });

  it("when the tool is named toolName (the official library's declaration), then it is read the same way", () => {
    expect(parseBazaarItem(libraryMcpItem(), 2)).toMatchObject({
      resourceUrl: "https://mcp.example.com/tools#search",
      method: "MCP",
      call: { input: { type: "mcp", toolName: "search" } },
    });
  });

  it("when the item declares an SSE-only server, then it is listed with a warning (probes speak Streamable HTTP)", () => {
    const item = specMcpItem();
    const extensions = item.extensions as { bazaar: { info: { input: Record<string, unknown> } } };
    extensions.bazaar.info.input.transport = "sse";
    const parsed = parseBazaarItem(item, 2);
    expect(typeof parsed !== "string" && parsed.warnings).toEqual([
      'MCP transport "sse" declared; probes use Streamable HTTP',
    ]);
  });

  it("when an item names the tool by an mcp:// URI and no server, then it is skipped with its reason", () => {
    expect(parseBazaarItem(uriOnlyMcpItem, 2)).toBe(
      "mcp item without its server's http(s) URL: resource is not http(s): mcp://tools/search",
    );
  });

  it("when an mcp item names no tool, then it is skipped rather than guessed", () => {
    const item = specMcpItem();
    const extensions = item.extensions as { bazaar: { info: { input: Record<string, unknown> } } };
    delete extensions.bazaar.info.input.tool;
    expect(parseBazaarItem(item, 2)).toMatch(/names no tool/);
  });

  it("when two tools of one server are listed, then they are two endpoints of one service", () => {
    const page = parseBazaarPage({
      x402Version: 2,
      items: [
        libraryMcpItem("https://mcp.example.com/tools", "search"),
        libraryMcpItem("https://mcp.example.com/tools", "fetch"),
      ],
      pagination: { limit: 10, offset: 0, total: 2 },
    });
    const [service] = groupIntoServices(page.items);
    expect(service?.service.endpoints.map((e) => [e.method, e.url])).toEqual([
      ["MCP", "https://mcp.example.com/tools#fetch"],
      ["MCP", "https://mcp.example.com/tools#search"],
    ]);
  });
});
