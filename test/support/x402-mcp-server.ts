import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentRequired } from "@x402/core/types";
import { z } from "zod";
import { officialResourceServer, SELLER_EVM } from "./x402-official-servers";

/**
 * An MCP server with paid tools, built with the MCP SDK, on 127.0.0.1 (stateless Streamable HTTP,
 * answering in SSE streams as the SDK does by default). The payment requirements are made by the
 * official x402 server library (@x402/core's resource server: buildPaymentRequirements, then
 * createPaymentRequiredResponse), and answered in the shapes real servers use:
 *
 * - at /mcp, `financial_analysis` as @x402/mcp's payment wrapper answers (structuredContent and
 *   content[0].text), `weather` as the Cloudflare Agents SDK's paidTool does (_meta["x402/error"]
 *   and content[0].text, no structuredContent), and `ping`, free;
 * - at /legacy, `quote` as the MCP transport's first draft did: a JSON-RPC error 402 whose data is
 *   the PaymentRequired.
 */
export class X402McpServer {
  private server: http.Server | null = null;
  private origin = "";
  /** Every JSON-RPC method received, in order (a GET or DELETE is logged by its HTTP method). */
  readonly calls: string[] = [];
  private required: PaymentRequired | null = null;

  async start(): Promise<void> {
    const resource = officialResourceServer();
    await resource.initialize();
    const accepts = await resource.buildPaymentRequirements({
      scheme: "exact",
      network: "eip155:84532",
      payTo: SELLER_EVM,
      price: "$0.10",
    });
    this.required = await resource.createPaymentRequiredResponse(
      accepts,
      {
        url: "mcp://tool/financial_analysis",
        description: "Tool: financial_analysis",
        mimeType: "application/json",
      },
      "Payment required to access this tool",
    );
    this.server = http.createServer((req, res) => {
      this.answer(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  url(path = "/mcp"): string {
    return `${this.origin}${path}`;
  }

  get paymentRequired(): PaymentRequired {
    if (this.required === null) throw new Error("start the server first");
    return this.required;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString());
    const method = (body as { method?: string } | undefined)?.method;
    this.calls.push(method ?? req.method ?? "?");
    const path = new URL(req.url ?? "/", this.origin).pathname;
    const server = path === "/legacy" ? this.legacyServer() : path === "/mcp" ? this.paidServer() : null;
    if (server === null) {
      res.writeHead(404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private paidServer(): McpServer {
    const required = this.paymentRequired;
    const server = new McpServer({ name: "premium-api", version: "1.0.0" });
    server.registerTool(
      "financial_analysis",
      {
        description: "Advanced AI-powered financial analysis. Costs $0.10.",
        inputSchema: { ticker: z.string() },
      },
      async () => ({
        structuredContent: required as unknown as Record<string, unknown>,
        content: [{ type: "text", text: JSON.stringify(required) }],
        isError: true,
      }),
    );
    server.registerTool(
      "weather",
      {
        description: "Weather by city. Costs $0.10.",
        inputSchema: { city: z.string(), days: z.number().int() },
      },
      async () => {
        const payload = { ...required, error: "PAYMENT_REQUIRED", resource: { url: "x402://weather" } };
        return {
          isError: true,
          _meta: { "x402/error": payload },
          content: [{ type: "text" as const, text: JSON.stringify(payload) }],
        };
      },
    );
    server.registerTool("ping", { description: "Health check" }, async () => ({
      content: [{ type: "text", text: "pong" }],
    }));
    return server;
  }

  private legacyServer(): Server {
    const required = this.paymentRequired;
    const server = new Server({ name: "legacy-api", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: "quote", description: "A stock quote.", inputSchema: { type: "object", properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => {
      throw new McpError(402, "Payment required", required);
    });
    return server;
  }
}
