import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export interface CachedResponse {
  json: Buffer;
  gzip: Buffer;
  etag: string;
  expiresAt: number;
}

/**
 * The API's answers, kept for a few seconds. The catalogue changes only when a crawl or a probe
 * writes (hourly by default), and agents repeat their searches; an answer that costs ~10 ms of
 * database and serialisation work is then served for the cost of a lookup. Answers are stored
 * compressed and with their ETag, so a hit does no JSON, gzip or hashing work at all. The time to
 * live stays far below the `max-age` the API already promises clients. Least recently used
 * entries go first when the cache is full; very large answers are not kept.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly maxBodyBytes = 512 * 1024,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0 && this.maxEntries > 0;
  }

  get(key: string, now = Date.now()): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  /** Prepares an answer for sending (and keeps it when caching is on and it is not too large). */
  store(key: string, body: unknown, now = Date.now()): CachedResponse {
    const json = Buffer.from(JSON.stringify(body));
    const entry: CachedResponse = {
      json,
      gzip: gzipSync(json, { level: 6 }),
      etag: `W/"${json.length.toString(16)}-${createHash("sha1").update(json).digest("base64url").slice(0, 27)}"`,
      expiresAt: now + this.ttlMs,
    };
    if (this.enabled && json.length <= this.maxBodyBytes) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      while (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
    }
    return entry;
  }
}
