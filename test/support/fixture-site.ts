import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FixturePage {
  body: string;
  status?: number;
  contentType?: string;
  /** Fail with this status the first N requests, then serve the page (a flaky server). */
  failFirst?: { times: number; status: number };
  delayMs?: number;
  /** Send an ETag and honour If-None-Match (default true). */
  etag?: boolean;
  headers?: Record<string, string>;
}

/**
 * A directory served on 127.0.0.1 for crawl tests: pages by path (with query), faults on demand,
 * conditional GETs, and a log of every request it answered.
 */
export class FixtureSite {
  readonly pages = new Map<string, FixturePage>();
  readonly requests: { path: string; status: number; conditional: boolean; userAgent: string }[] = [];
  private readonly attempts = new Map<string, number>();
  private server: http.Server | null = null;
  origin = "";

  set(path: string, page: FixturePage | string): this {
    this.pages.set(path, typeof page === "string" ? { body: page } : page);
    return this;
  }

  delete(path: string): this {
    this.pages.delete(path);
    return this;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  countRequests(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  resetLog(): void {
    this.requests.length = 0;
  }

  /** Connections clients hold open to the site now (keep-alive ones included). */
  openConnections(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.server
        ? this.server.getConnections((err, count) => (err ? reject(err) : resolve(count)))
        : resolve(0),
    );
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = req.url ?? "/";
    const page = this.pages.get(path);
    // Logged on arrival (status 0 until answered), so a request the client gave up on still counts.
    const entry = {
      path,
      status: 0,
      conditional: Boolean(req.headers["if-none-match"] || req.headers["if-modified-since"]),
      userAgent: String(req.headers["user-agent"] ?? ""),
    };
    this.requests.push(entry);
    const log = (status: number) => {
      entry.status = status;
    };
    if (!page) {
      log(404);
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
      return;
    }
    if (page.delayMs) await new Promise((resolve) => setTimeout(resolve, page.delayMs));
    const attempt = (this.attempts.get(path) ?? 0) + 1;
    this.attempts.set(path, attempt);
    if (page.failFirst && attempt <= page.failFirst.times) {
      log(page.failFirst.status);
      res
        .writeHead(page.failFirst.status, { "content-type": "text/html" })
        .end("<h1>Temporarily unavailable</h1>");
      return;
    }
    const status = page.status ?? 200;
    const headers: Record<string, string> = {
      "content-type": page.contentType ?? "text/html; charset=utf-8",
      ...page.headers,
    };
    if (page.etag !== false && status === 200) {
      const etag = `"${createHash("sha1").update(page.body).digest("hex")}"`;
      headers.etag = etag;
      if (req.headers["if-none-match"] === etag) {
        log(304);
        res.writeHead(304, { etag }).end();
        return;
      }
    }
    log(status);
    res.writeHead(status, headers).end(page.body);
  }
}
