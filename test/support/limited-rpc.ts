import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LimitedRpc {
  url: string;
  /** Requests that reached the proxy, by JSON-RPC method. */
  calls: Map<string, number>;
  /** eth_getLogs refused for their range or their topic list. */
  refused: number;
  /** Every eth_getLogs the proxy answered: its range and its topics. */
  logRequests: Array<{ fromBlock: bigint; toBlock: bigint; topics: Array<string | string[] | null> }>;
  /** After `count` more requests, every request fails with HTTP 503 (an outage) until `heal`. */
  breakAfter(count: number): void;
  heal(): void;
  close(): Promise<void>;
}

interface RpcRequest {
  id: number | string;
  method: string;
  params?: Array<{ fromBlock?: string; toBlock?: string; topics?: Array<string | string[] | null> }>;
}

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of a local chain that refuses what public endpoints
 * refuse: an eth_getLogs over more than `maxBlocks` blocks ("query returned more than 10000
 * results", code -32005) or with more than `maxTopicValues` values in one topic's OR-list.
 */
export async function startLimitedRpc(
  upstream: string,
  limits: { maxBlocks: number; maxTopicValues: number },
): Promise<LimitedRpc> {
  const calls = new Map<string, number>();
  let refused = 0;
  let healthyLeft = Number.POSITIVE_INFINITY;
  const logRequests: LimitedRpc["logRequests"] = [];
  const refusal = (request: RpcRequest): string | null => {
    if (request.method !== "eth_getLogs") return null;
    const filter = request.params?.[0];
    const from = BigInt(filter?.fromBlock ?? "0x0");
    const to = BigInt(filter?.toBlock ?? from);
    if (to - from + 1n > BigInt(limits.maxBlocks)) return "query returned more than 10000 results";
    if (
      (filter?.topics ?? []).some((topic) => Array.isArray(topic) && topic.length > limits.maxTopicValues)
    ) {
      return "too many topics in filter";
    }
    return null;
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcRequest;
    calls.set(request.method, (calls.get(request.method) ?? 0) + 1);
    res.setHeader("content-type", "application/json");
    if (healthyLeft <= 0) {
      res.statusCode = 503;
      res.end(JSON.stringify({ error: "overloaded" }));
      return;
    }
    healthyLeft -= 1;
    const reason = refusal(request);
    if (reason) {
      refused += 1;
      res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32005, message: reason } }));
      return;
    }
    if (request.method === "eth_getLogs") {
      const filter = request.params?.[0];
      logRequests.push({
        fromBlock: BigInt(filter?.fromBlock ?? "0x0"),
        toBlock: BigInt(filter?.toBlock ?? "0x0"),
        topics: filter?.topics ?? [],
      });
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get refused() {
      return refused;
    },
    logRequests,
    breakAfter(count) {
      healthyLeft = count;
    },
    heal() {
      healthyLeft = Number.POSITIVE_INFINITY;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
