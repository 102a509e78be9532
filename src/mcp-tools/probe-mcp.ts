import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CallDescription } from "../payments/call-description";
import { blankResult, type ProbeDeps, type ProbeResult, type ProbeTarget } from "../probe/probe-endpoint";
import type { HostRateLimiter } from "../probe/rate-limit";
import { type FetchRecord, guardedFetch, newFetchRecord } from "./guarded-fetch";
import type { ToolCallAnswer } from "./payment-required";
import { unpaidCallArguments } from "./tool-arguments";
import { toolCall, toolProbeResult } from "./tool-result";
import { mcpToolUrl, readMcpToolUrl } from "./tool-url";

export interface McpProbeDeps extends ProbeDeps {
  /** Spaces the tool calls to one host (the probes' politeness); without it they go one after the other. */
  limiter?: HostRateLimiter;
  /** Stops the probe early (shutdown). */
  signal?: AbortSignal;
}

/** One tool of an MCP server as a catalogue endpoint, with what its unpaid call answered. */
export interface McpToolEndpoint {
  method: "MCP";
  /** The server URL with the tool's name as fragment (tool-url.ts). */
  url: string;
  tool: string;
  description: string | null;
  /** How to call it: the tool's input schema as its server's tools/list gives it (format mcp_tool). */
  call: CallDescription;
  result: ProbeResult;
}

export interface McpServerProbe {
  serverUrl: string;
  /** The name the server gives itself when it initializes (its serverInfo); null when it could not be read. */
  serverName: string | null;
  /** Why the server could not be read (connect, initialize or tools/list); null when it was. */
  failure: ProbeResult | null;
  tools: McpToolEndpoint[];
}

/** tools/list pages read at most (a server that pages forever is cut there). */
const MAX_TOOL_PAGES = 10;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A session that failed before or between tool calls, as a probe result. */
function sessionFailure(record: FetchRecord, error: unknown, latencyMs: number | null): ProbeResult {
  const base = blankResult(record.sent ? latencyMs : null, []);
  if (record.failure !== null)
    return { ...base, outcome: record.failure.outcome, statusCode: null, error: record.failure.reason };
  const status = record.lastStatus;
  if (status !== null && status >= 400)
    return { ...base, outcome: "http_error", statusCode: status, error: `HTTP ${status}` };
  return {
    ...base,
    outcome: "http_error",
    statusCode: status,
    error: `not an MCP server: ${message(error)}`,
  };
}

async function listTools(client: Client, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    const answer = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

async function callUnpaid(client: Client, tool: Tool, timeout: number): Promise<ToolCallAnswer> {
  const args = unpaidCallArguments(tool.inputSchema);
  try {
    return {
      kind: "result",
      result: await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout }),
    };
  } catch (error) {
    if (error instanceof McpError)
      return { kind: "error", code: error.code, message: error.message, data: error.data };
    throw error;
  }
}

/**
 * Reads an MCP server the way an agent meets it, with the official MCP SDK client over Streamable
 * HTTP: initialize, `tools/list`, then one unpaid `tools/call` per tool (only `onlyTool` when
 * given), every request through the probe's address guard and limits (guarded-fetch.ts). Each
 * tool becomes an endpoint keyed by server URL and tool name, method MCP, with its probe result.
 * Never throws: a server that cannot be read is a `failure`.
 */
export async function probeMcpServer(
  url: string,
  deps: McpProbeDeps,
  onlyTool?: string,
): Promise<McpServerProbe> {
  const serverUrl = new URL(url);
  serverUrl.hash = "";
  const record = newFetchRecord();
  const timeout = deps.settings.timeoutMs;
  const client = new Client({ name: "x402-catalogue-probe", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(serverUrl, {
    fetch: guardedFetch(deps, record, deps.signal),
  });
  const started = performance.now();
  const probe: McpServerProbe = { serverUrl: serverUrl.href, serverName: null, failure: null, tools: [] };
  try {
    await client.connect(transport, { timeout });
    probe.serverName = client.getServerVersion()?.name ?? null;
    const listed = await listTools(client, timeout);
    for (const tool of listed.filter((t) => onlyTool === undefined || t.name === onlyTool)) {
      await deps.limiter?.acquire(serverUrl.hostname, deps.signal);
      const called = performance.now();
      let result: ProbeResult;
      try {
        result = toolProbeResult(await callUnpaid(client, tool, timeout), tool, performance.now() - called);
      } catch (error) {
        result = sessionFailure(record, error, performance.now() - called);
      }
      const endpoint = { method: "MCP", url: mcpToolUrl(serverUrl, tool.name), tool: tool.name } as const;
      probe.tools.push({ ...endpoint, description: tool.description ?? null, call: toolCall(tool), result });
    }
  } catch (error) {
    probe.failure = sessionFailure(record, error, performance.now() - started);
  } finally {
    await client.close().catch(() => undefined);
  }
  return probe;
}

/** The probe of one MCP tool endpoint (the sweep's job): its server read for that tool alone. */
export async function probeMcpTool(target: ProbeTarget, deps: McpProbeDeps): Promise<ProbeResult> {
  const address = readMcpToolUrl(target.url);
  if (address === null) {
    const error = "an MCP endpoint URL names its tool in the fragment; this one names none";
    return { ...blankResult(null, []), outcome: "refused", statusCode: null, error };
  }
  const server = await probeMcpServer(address.serverUrl, deps, address.tool);
  const [found] = server.tools;
  if (found !== undefined) return found.result;
  if (server.failure !== null) return server.failure;
  const error = `the server's tools/list does not list the tool ${JSON.stringify(address.tool)}`;
  return { ...blankResult(null, []), outcome: "http_error", statusCode: null, error };
}
