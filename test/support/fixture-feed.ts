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
 * How a feed that states no total names its next page, and where on the page it says so. The
 * last page names none: the link or cursor is null, hasMore is false.
 */
export type FeedContinuation =
  /** A link to `?after=<token>&limit=…`: relative (path-absolute) or absolute. */
  | { style: "next"; where: "top" | "pagination" | "links"; absolute: boolean }
  | { style: "cursor"; field: "nextCursor" | "next_cursor" | "cursor"; where: "top" | "pagination" }
  /** hasMore with limit and offset: in the pagination block, or all three beside the items. */
  | { style: "hasMore"; field: "hasMore" | "has_more"; where: "top" | "pagination" };

/** The opaque token the fixture's cursors and next links carry for a position. */
export const feedToken = (offset: number) => Buffer.from(`o:${offset}`).toString("base64url");
const offsetOfToken = (token: string) => Number(Buffer.from(token, "base64url").toString().slice(2));

/**
 * A Bazaar discovery feed on 127.0.0.1: serves `items` in `{ x402Version, items, pagination }`
 * pages by `offset`/`limit` (or, with a `continuation`, by cursor or next link and no total),
 * with faults per offset on demand and a log of every request.
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
  /** States no total; each page names the next this way instead. */
  continuation: FeedContinuation | null = null;
  /** Name a next page whenever a page is full, so the last one may be empty (as many cursor APIs do). */
  continueWhenFull = false;
  /** The page at offset `at` names offset `to` as its next page (a feed that loops). */
  loop: { at: number; to: number } | null = null;
  /** Next links lead to this origin instead of the feed's own. */
  linkOrigin: string | null = null;
  /** Called before each page is answered (a feed that changes during a walk). */
  beforeAnswer: ((offset: number) => void) | null = null;
  /** `offset` is the position asked for, also when it came as a cursor or in a next link's token. */
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
    const token = url.searchParams.get("cursor") ?? url.searchParams.get("after");
    const offset = token === null ? Number(url.searchParams.get("offset") ?? 0) : offsetOfToken(token);
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
    const paging =
      this.continuation !== null
        ? this.onward(offset, limit, items.length)
        : this.omitPagination
          ? {}
          : { pagination };
    send(200, JSON.stringify({ x402Version: 2, [this.itemsKey]: items, ...paging }));
  }

  /** The continuation fields of the page at `offset` (a continuation feed states no total). */
  private onward(offset: number, limit: number, received: number): Record<string, unknown> {
    const how = this.continuation!;
    const full = received > 0 && received === Math.min(limit, this.maxPageSize);
    let next: number | null = (this.continueWhenFull ? full : offset + received < this.items.length)
      ? offset + received
      : null;
    if (this.loop?.at === offset) next = this.loop.to;
    if (how.style === "hasMore") {
      const fields = { limit, offset, [how.field]: next !== null };
      return how.where === "pagination" ? { pagination: fields } : fields;
    }
    if (how.style === "cursor") {
      const fields = { [how.field]: next === null ? null : feedToken(next) };
      return how.where === "pagination" ? { pagination: { limit, ...fields } } : fields;
    }
    const path = `${FEED_PATH}?after=${next === null ? "" : feedToken(next)}&limit=${limit}`;
    const link = next === null ? null : how.absolute ? `${this.linkOrigin ?? this.origin}${path}` : path;
    if (how.where === "links") return { links: { self: `${FEED_PATH}?offset=${offset}`, next: link } };
    return how.where === "pagination" ? { pagination: { limit, next: link } } : { next: link };
  }
}
