import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMcpServer, probeMcpTool } from "../../../src/mcp-tools/probe-mcp";
import { mcpToolUrl } from "../../../src/mcp-tools/tool-url";
import { testProbeDeps } from "../../support/probe";
import { X402McpServer } from "../../support/x402-mcp-server";
import { SELLER_EVM } from "../../support/x402-official-servers";

describe("probing an MCP server with paid tools (x402 over MCP)", () => {
  const server = new X402McpServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it("when its tools are listed and each called unpaid, then the paid ones answer a valid challenge and the free one none", async () => {
    const probe = await probeMcpServer(server.url(), testProbeDeps());
    expect(probe).toMatchObject({ failure: null, serverName: "premium-api", serverUrl: server.url() });
    const byTool = new Map(probe.tools.map((t) => [t.tool, t]));
    expect([...byTool.keys()].sort()).toEqual(["financial_analysis", "ping", "weather"]);

    const paid = byTool.get("financial_analysis")!;
    expect(paid).toMatchObject({
      method: "MCP",
      url: mcpToolUrl(server.url(), "financial_analysis"),
      description: "Advanced AI-powered financial analysis. Costs $0.10.",
      call: {
        format: "mcp_tool",
        input: { type: "mcp", tool: "financial_analysis", inputSchema: { required: ["ticker"] } },
      },
    });
    expect(paid.result).toMatchObject({
      outcome: "challenge",
      statusCode: 402,
      challengeValid: true,
      x402Version: 2,
      error: null,
      call: { format: "mcp_tool", input: { type: "mcp", tool: "financial_analysis" } },
    });
    expect(paid.result.options).toEqual([
      expect.objectContaining({
        network: "eip155:84532",
        price_usdc: "0.1",
        pay_to: SELLER_EVM,
        payable: true,
      }),
    ]);
    expect(paid.result.warnings).toEqual([]);
    const checks = Object.fromEntries(paid.result.checks.map((c) => [c.id, c.result]));
    expect(checks).toMatchObject({
      answers_402: "pass",
      challenge_valid: "pass",
      version_channel: "pass",
      input_described: "pass",
    });
    expect(paid.result.latencyMs).toBeGreaterThan(0);

    // The Agents SDK's shape: found in content[0].text, with a warning that structuredContent is missing.
    const agents = byTool.get("weather")!;
    expect(agents.result).toMatchObject({ outcome: "challenge", challengeValid: true });
    expect(agents.result.warnings).toContain(
      "payment requirements in content.text, not in structuredContent",
    );

    expect(byTool.get("ping")?.result).toMatchObject({
      outcome: "no_challenge",
      statusCode: 200,
      error: "the tool answered without asking for payment",
    });
    // The required arguments were filled in: the SDK's input validation let every call reach the tool.
    expect(server.calls.filter((call) => call === "tools/call")).toHaveLength(3);
    // The probe opened no stream of server messages: the GET never left the process.
    expect(server.calls).not.toContain("GET");
  });

  it("when a server answers a JSON-RPC error 402 (the transport's first draft), then its data is read as the challenge", async () => {
    const probe = await probeMcpServer(server.url("/legacy"), testProbeDeps());
    expect(probe.tools).toHaveLength(1);
    expect(probe.tools[0]?.result).toMatchObject({
      outcome: "challenge",
      challengeValid: true,
      statusCode: 402,
    });
    expect(probe.tools[0]?.result.warnings[0]).toMatch(/JSON-RPC error 402/);
  });

  it("when one tool endpoint is probed, then only that tool is called", async () => {
    const before = server.calls.length;
    const result = await probeMcpTool(
      { method: "MCP", url: mcpToolUrl(server.url(), "financial_analysis") },
      testProbeDeps(),
    );
    expect(result).toMatchObject({ outcome: "challenge", challengeValid: true });
    expect(server.calls.slice(before).filter((call) => call === "tools/call")).toHaveLength(1);
  });

  it("when the tool is no longer listed, then the probe says so without calling anything", async () => {
    const result = await probeMcpTool(
      { method: "MCP", url: mcpToolUrl(server.url(), "gone") },
      testProbeDeps(),
    );
    expect(result).toMatchObject({ outcome: "http_error", error: expect.stringContaining('"gone"') });
  });

  it("when the server's address is not allowed (loopback refused), then nothing is sent and the probe is refused", async () => {
    const before = server.calls.length;
    const probe = await probeMcpServer(server.url(), testProbeDeps({ allowedNetworks: [] }));
    expect(probe.tools).toEqual([]);
    expect(probe.failure).toMatchObject({ outcome: "refused", statusCode: null, latencyMs: null });
    expect(probe.failure?.error).toMatch(/loopback/);
    expect(server.calls.length).toBe(before);
  });

  it("when the URL answers but is not an MCP server, then it is an http_error with the status", async () => {
    const probe = await probeMcpServer(server.url("/nothing-here"), testProbeDeps());
    expect(probe.failure).toMatchObject({ outcome: "http_error", statusCode: 404 });
  });
});
