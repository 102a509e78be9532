import http from "node:http";
import type { AddressInfo } from "node:net";

export const FEED_PATH = "/platform/v2/x402/discovery/resources";

/** A page that misbehaves: answered with `status` the first `times` requests (Infinity: always). */
export interface FeedFault {
  status: number;
  times: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this long (a slow or hanging server). */
  delayMs?: number;
}

/**
 * A Bazaar discovery feed on 127.0.0.1: serves `items` in `{ x402Version, items, pagination }`
 * pages by `offset`/`limit`, with faults per offset on demand and a log of every request.
 */
export class FixtureFeed {
  items: unknown[] = [];
  /** Faults by offset. */
  readonly faults = new Map<number, FeedFault>();
  /** Most items the server serves per page, whatever `limit` asks (it still echoes the asked limit). */
  maxPageSize = Number.POSITIVE_INFINITY;
  /** Leave the pagination block out (a feed that states no total). */
  omitPagination = false;
  /** Name of the page's array: `resources` is how the search answer of @x402/extensions names it. */
  itemsKey: "items" | "resources" = "items";
  /** Report this total instead of the real one (a feed whose total lies). */
  statedTotal: number | null = null;
  /** Called before each page is answered (a feed that changes during a walk). */
  beforeAnswer: ((offset: number) => void) | null = null;
  readonly requests: { offset: number; limit: number; query: string; status: number; userAgent: string }[] =
    [];
  private readonly attempts = new Map<number, number>();
  private server: http.Server | null = null;
  origin = "";

  get url(): string {
    return `${this.origin}${FEED_PATH}`;
  }

  offsetsRequested(): number[] {
    return this.requests.map((r) => r.offset);
  }

  resetLog(): void {
    this.requests.length = 0;
    this.attempts.clear();
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
    const url = new URL(req.url ?? "/", this.origin);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 100);
    const entry = {
      offset,
      limit,
      query: url.search,
      status: 0,
      userAgent: String(req.headers["user-agent"]),
    };
    this.requests.push(entry);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
    };
    if (url.pathname !== FEED_PATH) return send(404, '{"error":"not found"}');
    const attempt = (this.attempts.get(offset) ?? 0) + 1;
    this.attempts.set(offset, attempt);
    const fault = this.faults.get(offset);
    if (fault && attempt <= fault.times) {
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      return send(fault.status, fault.body ?? '{"error":"unavailable"}', fault.headers);
    }
    this.beforeAnswer?.(offset);
    const items = this.items.slice(offset, offset + Math.min(limit, this.maxPageSize));
    const pagination = { limit, offset, total: this.statedTotal ?? this.items.length };
    const page = { x402Version: 2, [this.itemsKey]: items, ...(this.omitPagination ? {} : { pagination }) };
    send(200, JSON.stringify(page));
  }
}
