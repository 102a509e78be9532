import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the fixture answers one path. */
export interface FixtureAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering (a slow endpoint). */
  delayMs?: number;
  /** Stream this many bytes of filler after `body` (an oversized answer). */
  fillerBytes?: number;
}

export interface FixtureRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The whole answer was written; false when the client hung up first. */
  answeredInFull: boolean;
}

/** Payment-related request headers a probe must never send (any case; x-wallet* and x-payment* too). */
export const PAYMENT_HEADER = /^(x-payment.*|payment-signature|x-wallet.*|authorization|cookie)$/i;

/**
 * x402 endpoints on loopback for probe tests and benchmarks: answers by path, and a log of every
 * request exactly as it arrived (method, headers, body).
 */
/** A fixed answer, or one computed from each request (a JSON-RPC stub answers by method). */
export type FixtureResponder = FixtureAnswer | ((request: FixtureRequest) => FixtureAnswer);

export class X402Fixture {
  readonly answers = new Map<string, FixtureResponder>();
  readonly requests: FixtureRequest[] = [];
  private server: http.Server | null = null;
  origin = "";
  port = 0;

  constructor(private readonly host = "127.0.0.1") {}

  set(path: string, answer: FixtureResponder): this {
    this.answers.set(path, answer);
    return this;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, this.host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.origin = `http://${this.host}:${this.port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry: FixtureRequest = {
      method: req.method ?? "",
      path: req.url ?? "/",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      answeredInFull: false,
    };
    this.requests.push(entry);
    res.on("finish", () => {
      entry.answeredInFull = true;
    });
    const responder = this.answers.get(entry.path) ?? { status: 404, body: "not found" };
    const answer = typeof responder === "function" ? responder(entry) : responder;
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    if (answer.body !== undefined) res.write(answer.body);
    let left = answer.fillerBytes ?? 0;
    const filler = Buffer.alloc(64 * 1024, " ");
    while (left > 0 && !res.destroyed) {
      const piece = filler.subarray(0, Math.min(left, filler.length));
      left -= piece.length;
      if (!res.write(piece)) await drainedOrClosed(res);
    }
    res.end();
  }
}

/** Waits for room to write, or for the client to go; the listener that did not fire is removed. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.once("drain", done).once("close", done);
  });
}
