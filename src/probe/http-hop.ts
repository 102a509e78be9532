import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import type { VettedTarget } from "./resolve-target";

export interface HopRequest {
  target: VettedTarget;
  method: string;
  /** Sent with content-type application/json; null sends no body. */
  jsonBody: string | null;
  userAgent: string;
  /** Sent as well (webhook signatures); probes send none. */
  extraHeaders?: Record<string, string>;
  maxBytes: number;
  signal: AbortSignal;
  /**
   * Keeps connections for reuse (webhook deliveries). Every socket it holds must have been
   * connected to this target's vetted addresses: one agent per address set (src/webhooks/receiver-agents.ts).
   * Without one, the connection is closed after the answer (probes).
   */
  agent?: http.Agent;
}

export interface HopResponse {
  status: number;
  headers: Record<string, string | undefined>;
  bodyText: string;
  /** The answer was longer than maxBytes; only the first maxBytes were read. */
  truncated: boolean;
}

/**
 * Makes the socket connect to the vetted addresses whatever the name would resolve to now. Node
 * 20's happy-eyeballs connect asks for all of them (all: true) and falls back from one to the
 * next, so a dual-stack host still answers from a machine without IPv6.
 */
function pinnedLookup(target: VettedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const [first] = target.addresses;
    if (options.all) callback(null, target.addresses);
    else if (first !== undefined) callback(null, first.address, first.family);
    else callback(new Error(`no vetted address for ${target.hostname}`), "");
  };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

/** We ask for identity, but some servers compress anyway; the cap then applies to decoded bytes. */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(zlib.createGunzip());
  if (encoding === "deflate") return response.pipe(zlib.createInflate());
  if (encoding === "br") return response.pipe(zlib.createBrotliDecompress());
  return response;
}

/** Reads at most maxBytes, then stops reading (the connection is dropped, not drained). */
function readCapped(
  response: http.IncomingMessage,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const stream = decoded(response);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (truncated: boolean) => {
      settled = true;
      resolve({ text: Buffer.concat(chunks).toString("utf8"), truncated });
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    stream.on("data", (chunk: Buffer) => {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        stream.removeAllListeners("data");
        finish(true);
        response.destroy();
        if (stream !== response) stream.destroy();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.once("end", () => finish(false));
    // "on", not "once": a destroyed stream may emit more than one error, and an unheard one throws.
    stream.on("error", fail);
    if (stream !== response) response.on("error", fail);
    stream.once("close", () => fail(new Error("connection closed before the answer was complete")));
  });
}

/**
 * One HTTP request to a vetted target. Only our User-Agent, an Accept header and, for methods with
 * a body, an empty JSON object go out: never a payment, wallet, cookie or authorization header
 * (credentials in the URL are dropped too). Without `request.agent` no connection is reused, so no
 * socket outlives the probe.
 */
export function sendHop(request: HopRequest): Promise<HopResponse> {
  const { target } = request;
  const headers: Record<string, string> = {
    "user-agent": request.userAgent,
    accept: "application/json, */*;q=0.5",
    "accept-encoding": "identity",
    ...(request.agent ? {} : { connection: "close" }),
    ...request.extraHeaders,
  };
  if (request.jsonBody !== null) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(request.jsonBody));
  }
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      {
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        method: request.method,
        headers,
        agent: request.agent ?? false,
        // TLS still uses the original name for SNI and certificate checks (Node derives it from hostname).
        lookup: pinnedLookup(target),
        signal: request.signal,
      },
      (response) => {
        readCapped(response, request.maxBytes).then(
          ({ text, truncated }) =>
            resolve({
              status: response.statusCode ?? 0,
              headers: flatHeaders(response.headers),
              bodyText: text,
              truncated,
            }),
          reject,
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.jsonBody ?? undefined);
  });
}
