import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HostResolver } from "../../src/probe/resolve-target";

/** One canned answer: JSON (an object or array is sent as application/json) or raw text. */
export interface CannedAnswer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

/**
 * Many made-up origins on one loopback server (`http://<name>.example:<port>`), told apart by
 * their Host header, each answering its own paths with canned answers (404 otherwise), with a
 * log of every request. Pair it with `fixtureResolver` so the names reach it through the same
 * address guard production uses.
 */
export class FixtureOrigins {
  /** host name → path → answer. */
  readonly answers = new Map<string, Map<string, CannedAnswer>>();
  readonly requests: { host: string; path: string; userAgent: string }[] = [];
  private server: http.Server | null = null;
  port = 0;

  origin(host: string): string {
    return `http://${host}:${this.port}`;
  }

  serve(host: string, path: string, answer: CannedAnswer): void {
    const paths = this.answers.get(host) ?? new Map<string, CannedAnswer>();
    paths.set(path, answer);
    this.answers.set(host, paths);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      const path = req.url ?? "/";
      this.requests.push({ host, path, userAgent: req.headers["user-agent"] ?? "" });
      const answer = this.answers.get(host)?.get(path);
      if (answer === undefined) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const body = answer.body ?? JSON.stringify(answer.json);
      const type = answer.body === undefined ? { "content-type": "application/json" } : {};
      res.writeHead(answer.status ?? 200, { ...type, ...answer.headers }).end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** `*.example` → 127.0.0.1, and chosen names to chosen (e.g. private) addresses. */
export function fixtureResolver(elsewhere: Record<string, string> = {}): HostResolver {
  return async (hostname) => {
    const address = elsewhere[hostname] ?? (hostname.endsWith(".example") ? "127.0.0.1" : null);
    if (address === null) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  };
}
