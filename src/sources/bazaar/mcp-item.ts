import { MCP_METHOD, mcpToolUrl } from "../../mcp-tools/tool-url";
import { dig, type Json } from "./fields";

/**
 * A discovery item of type `mcp`: one tool of an MCP server. Its `resource` is the server's URL and
 * the tool is named in the bazaar extension's `info.input` (`toolName` as @x402/extensions writes
 * it, `tool` as the Bazaar spec does) or in the item's metadata. The Bazaar spec keys MCP tools by
 * (resource URL, tool), so the endpoint is the server URL with the tool as fragment, method MCP.
 */

/** The item describes an MCP tool: its type says so, or its bazaar extension's input does. */
export const isMcpItem = (item: Json): boolean =>
  item.type === "mcp" || dig(item, "extensions", "bazaar", "info", "input", "type") === "mcp";

function toolName(item: Json, metadata: Json): string | null {
  const input = dig(item, "extensions", "bazaar", "info", "input");
  const candidates = [dig(input, "toolName"), dig(input, "tool"), metadata.toolName, metadata.tool];
  for (const candidate of candidates) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate.trim();
  }
  return null;
}

/**
 * The endpoint of an `mcp` item's tool, or the reason the item cannot be one. A server declared as
 * SSE only (`transport: "sse"`) is still listed, with a warning: probes speak Streamable HTTP.
 */
export function readMcpEndpoint(
  item: Json,
  metadata: Json,
  serverUrl: URL,
  warnings: string[],
): { method: string; url: string } | string {
  const tool = toolName(item, metadata);
  if (tool === null) return "mcp item names no tool (extensions.bazaar.info.input.toolName or tool)";
  const transport = dig(item, "extensions", "bazaar", "info", "input", "transport");
  if (transport !== undefined && transport !== "streamable-http")
    warnings.push(`MCP transport ${JSON.stringify(transport)} declared; probes use Streamable HTTP`);
  return { method: MCP_METHOD, url: mcpToolUrl(serverUrl, tool) };
}
