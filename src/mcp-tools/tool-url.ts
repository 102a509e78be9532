/**
 * An MCP tool as a catalogue endpoint: method `MCP`, and as URL its server's URL with the tool's
 * name as fragment. A fragment never reaches a server, so the URL still connects an MCP client to
 * the server, while (method, URL), the endpoints' key, names the tool: one MCP server publishes
 * many tools at one URL (the Bazaar spec keys them by resource URL and tool name).
 */

export const MCP_METHOD = "MCP";

export const TRANSPORTS = ["http", "mcp"] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** How an endpoint is called: its method decides (MCP is a tool, every other method HTTP). */
export const transportOf = (method: string): Transport => (method === MCP_METHOD ? "mcp" : "http");

/** The endpoint URL of `tool` on the MCP server at `serverUrl` (any fragment of it replaced). */
export function mcpToolUrl(serverUrl: string | URL, tool: string): string {
  const url = new URL(serverUrl);
  url.hash = encodeURIComponent(tool);
  return url.href;
}

/** The server URL and tool name of an MCP endpoint URL; null when it names no tool. */
export function readMcpToolUrl(endpointUrl: string): { serverUrl: string; tool: string } | null {
  if (!URL.canParse(endpointUrl)) return null;
  const url = new URL(endpointUrl);
  if (url.hash.length < 2) return null;
  let tool: string;
  try {
    tool = decodeURIComponent(url.hash.slice(1));
  } catch {
    return null;
  }
  url.hash = "";
  return { serverUrl: url.href, tool };
}
