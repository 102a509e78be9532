import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Express } from "express";

export interface McpConnection {
  client: Client;
  /** The app's address, http://127.0.0.1:port. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The app on a loopback port, with the MCP SDK's own client connected to its /mcp over Streamable HTTP. */
export async function connectMcp(app: Express, name: string): Promise<McpConnection> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  return {
    client,
    baseUrl,
    close: async () => {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
