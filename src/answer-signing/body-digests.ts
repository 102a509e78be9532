import { bodyDigest } from "./signed-string";

/** Bodies smaller than this are hashed every time: remembering them saves less than it costs. */
const MIN_REMEMBERED_BYTES = 4 * 1024;
/** At most this many digests, of at most this many body bytes in all, are remembered. */
const MAX_ENTRIES = 256;
const MAX_BYTES = 16 * 1024 * 1024;

interface RememberedDigest {
  bytes: Buffer;
  digest: string;
}

/**
 * The SHA-256 digests of the answers a process sends again and again (a hot search, the same
 * bytes until the catalogue changes), remembered under the answer's ETag with a copy of the bytes
 * they were computed from. A remembered digest is used only for identical bytes: comparing 80 KB
 * costs a few µs where hashing them costs about 140, and an ETag that fails to tell two bodies
 * apart costs a hash, never a wrong digest. The least recently used go first.
 */
export class BodyDigests {
  private readonly entries = new Map<string, RememberedDigest>();
  private bytes = 0;

  /** The body's digest; `key` names the body (its ETag), when it has one. */
  digestOf(body: Uint8Array, key: string | undefined): string {
    if (key === undefined || body.length < MIN_REMEMBERED_BYTES) return bodyDigest(body);
    const remembered = this.entries.get(key);
    if (remembered !== undefined && Buffer.compare(remembered.bytes, body) === 0) {
      this.entries.delete(key);
      this.entries.set(key, remembered);
      return remembered.digest;
    }
    const digest = bodyDigest(body);
    if (body.length <= MAX_BYTES) this.remember(key, { bytes: Buffer.from(body), digest });
    return digest;
  }

  private remember(key: string, entry: RememberedDigest): void {
    this.forget(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes.length;
  }
}
