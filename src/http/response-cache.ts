import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

/** An answer ready to send: its bytes (JSON unless `contentType` says otherwise), its ETag, and its gzip form once someone asked for it. */
export class PreparedResponse {
  private compressed: Buffer | undefined;

  constructor(
    readonly json: Buffer,
    readonly etag: string,
    readonly expiresAt = 0,
    readonly contentType = "application/json; charset=utf-8",
  ) {}

  /** Compressed on first use only: most API clients (agents, load tools) never ask for gzip. */
  get gzip(): Buffer {
    this.compressed ??= gzipSync(this.json, { level: 6 });
    return this.compressed;
  }
}

/** A weak ETag from a digest of whatever determines the body (the body itself by default). */
export function weakEtag(determinant: string | Buffer, size: number): string {
  const digest = createHash("sha1").update(determinant).digest("base64url").slice(0, 27);
  return `W/"${size.toString(16)}-${digest}"`;
}

/**
 * The API's answers, kept for a few seconds. The catalogue changes only when a crawl or a probe
 * writes, and agents repeat their requests; an answer is then served for the cost of a lookup,
 * with no JSON, gzip or hashing work. The time to live stays far below the `max-age` the API
 * already promises clients. Least recently used entries go first when the cache is full; very
 * large answers are not kept.
 */
export class ResponseCache {
  private readonly entries = new Map<string, PreparedResponse>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly maxBodyBytes = 512 * 1024,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0 && this.maxEntries > 0;
  }

  /** Whether store keeps an answer of this many bytes (else it only prepares it for sending). */
  keeps(bytes: number): boolean {
    return this.enabled && bytes <= this.maxBodyBytes;
  }

  /** Drops every answer: the catalogue they were made from has been replaced. */
  clear(): void {
    this.entries.clear();
  }

  get(key: string, now = Date.now()): PreparedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  /**
   * Prepares JSON (text, or its UTF-8 bytes) for sending, and keeps it when caching is on and it
   * is not too large. `etagDeterminant`: what the body is a function of, when cheaper to hash.
   */
  store(key: string, body: string | Buffer, etagDeterminant?: string, now = Date.now()): PreparedResponse {
    const json = typeof body === "string" ? Buffer.from(body) : body;
    const entry = new PreparedResponse(
      json,
      weakEtag(etagDeterminant ?? json, json.length),
      now + this.ttlMs,
    );
    if (this.keeps(json.length)) {
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
