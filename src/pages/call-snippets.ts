/** Pure: how to call an endpoint, as text for people to copy (shown escaped, never run). */

import { MCP_METHOD, readMcpToolUrl } from "../mcp-tools/tool-url";

interface CallInput {
  method: string;
  url: string;
  call: { input: Record<string, unknown> | null } | null;
}

/** A shell word: single-quoted, with each quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The example body the call description gives (its input's body), if any. */
export function exampleBody(endpoint: CallInput): unknown {
  const input = endpoint.call?.input;
  if (!isRecord(input)) return undefined;
  return input.body ?? input.bodyFields ?? undefined;
}

/** An MCP tool's server URL and name (src/mcp-tools/tool-url.ts); null for an HTTP endpoint. */
const mcpToolOf = (endpoint: CallInput) =>
  endpoint.method === MCP_METHOD ? readMcpToolUrl(endpoint.url) : null;

/** An MCP tool's unpaid tools/call, as one JSON-RPC POST (a stateless server answers it without a session). */
function mcpCurl(serverUrl: string, tool: string): string {
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: {} } };
  return [
    `curl -i -X POST ${shellQuote(serverUrl)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H 'Accept: application/json, text/event-stream'`,
    `  --data ${shellQuote(JSON.stringify(message))}`,
  ].join(" \\\n");
}

/** The MCP SDK client's call; the unpaid answer carries x402's PaymentRequired. */
function mcpClientSnippet(serverUrl: string, tool: string): string {
  return [
    `import { Client } from "@modelcontextprotocol/sdk/client/index.js";`,
    `import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";`,
    "",
    `const client = new Client({ name: "my-agent", version: "1.0.0" });`,
    `await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(serverUrl)})));`,
    `const result = await client.callTool({ name: ${JSON.stringify(tool)}, arguments: {} });`,
    `// Unpaid: isError, with x402's PaymentRequired in result.structuredContent. Pay one of its`,
    `// accepts, then call again with the PaymentPayload in _meta["x402/payment"].`,
    "console.log(result);",
  ].join("\n");
}

/** The unpaid first request: it answers 402 with the payment challenge. */
export function curlExample(endpoint: CallInput): string {
  const tool = mcpToolOf(endpoint);
  if (tool !== null) return mcpCurl(tool.serverUrl, tool.tool);
  const body = exampleBody(endpoint);
  const lines = [`curl -i -X ${endpoint.method} ${shellQuote(endpoint.url)}`];
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`, `  --data ${shellQuote(JSON.stringify(body))}`);
  }
  return lines.join(" \\\n");
}

/** The same call through an x402 client that pays the challenge and repeats the request. */
export function clientSnippet(endpoint: CallInput): string {
  const tool = mcpToolOf(endpoint);
  if (tool !== null) return mcpClientSnippet(tool.serverUrl, tool.tool);
  const body = exampleBody(endpoint);
  const init =
    body === undefined
      ? `{ method: ${JSON.stringify(endpoint.method)} }`
      : `{\n  method: ${JSON.stringify(endpoint.method)},\n  headers: { "Content-Type": "application/json" },\n  body: JSON.stringify(${JSON.stringify(body)}),\n}`;
  return [
    `import { wrapFetchWithPayment } from "x402-fetch";`,
    `import { privateKeyToAccount } from "viem/accounts";`,
    "",
    "const account = privateKeyToAccount(process.env.PRIVATE_KEY);",
    "const pay = wrapFetchWithPayment(fetch, account);",
    `const response = await pay(${JSON.stringify(endpoint.url)}, ${init});`,
    "console.log(response.status, await response.text());",
  ].join("\n");
}
