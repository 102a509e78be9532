import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Listener } from "../db/notifications";
import type { Database } from "../db/prisma-client";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";

/** The channel the api_key_readers migration's trigger notifies, with the change counter's value. */
export const API_KEYS_CHANGED_CHANNEL = "api_keys_changed";

/**
 * How long a reader's lease lasts in the database's eyes: a revoker waits for the acknowledgement
 * of every reader that renewed its lease this recently, and for no longer than this.
 */
export const READER_LEASE_MS = 6_000;
/** A reader renews every third of its lease and trusts its cache only for half of it. */
const HEARTBEAT_MS = READER_LEASE_MS / 3;
const TRUSTED_FOR_MS = READER_LEASE_MS / 2;
/** How soon a reader waiting for its listener to connect tries again. */
const LISTENER_RETRY_MS = 100;
/** Rows of processes that died without saying goodbye are removed after this long. */
const FORGET_READERS_AFTER = "1 hour";

/**
 * Verified keys kept in memory, so a keyed request costs no database round trip, without
 * weakening "a revoked key is refused on the next request on every replica":
 * - every change that can alter a verified key notifies a counter value (a trigger); on it the
 *   cache is emptied and the value acknowledged in `api_key_readers`; `revokeApiKey` returns only
 *   once every live reader acknowledged its change;
 * - the cache is trusted only while notifications arrive and the reader's lease, renewed every
 *   two seconds, is fresh, and only while it is not behind the counter it read at its previous
 *   renewal (a listener that silently stopped delivering); otherwise every lookup goes to Postgres;
 * - a lookup that started before a change may not store its (older) answer afterwards.
 */
export class KeyCache<Entry> {
  private readonly id = randomUUID();
  private readonly keys = new Map<string, Entry>();
  /** Bumped on every clear: a lookup stores its answer only if none happened meanwhile. */
  private generation = 0;
  /** The last change this reader has taken in (cleared for); undefined until it read the counter. */
  private seenChange: bigint | undefined;
  /** The counter's value at the last renewal, when it was ahead of what was seen. */
  private behindAt: bigint | undefined;
  private trustedUntil = 0;
  private readonly heartbeat: NodeJS.Timeout;
  /** A renewal sooner than the heartbeat, while the listener is still connecting. */
  private retry: NodeJS.Timeout | undefined;
  private renewal: Promise<void>;
  private closed = false;

  constructor(
    private readonly pool: ReadPool,
    private readonly changes: Listener,
    private readonly logger: Logger,
  ) {
    changes.subscribe((payload) => this.changed(payload));
    this.heartbeat = setInterval(() => {
      this.renewal = this.renew();
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.renewal = this.renew();
  }

  /** The cached answer for a key hash (hex), when the cache may be trusted. */
  get(hash: string): Entry | undefined {
    return this.trusted() ? this.keys.get(hash) : undefined;
  }

  /** Which generation a lookup starts in: pass it back to `set` with the lookup's answer. */
  currentGeneration(): number {
    return this.generation;
  }

  set(hash: string, key: Entry, lookupGeneration: number): void {
    if (lookupGeneration === this.generation && this.trusted()) this.keys.set(hash, key);
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    clearTimeout(this.retry);
    this.closed = true;
    await this.renewal;
    this.clear();
    await this.pool.query("DELETE FROM api_key_readers WHERE id = $1", [this.id]).catch(() => undefined);
  }

  /** Whether verified keys are served from memory now (else every lookup goes to Postgres). */
  trusted(): boolean {
    return (
      this.seenChange !== undefined &&
      this.behindAt === undefined &&
      Date.now() < this.trustedUntil &&
      this.changes.listening()
    );
  }

  private clear(): void {
    this.keys.clear();
    this.generation += 1;
  }

  private changed(payload: string | undefined): void {
    // Cleared first, so that no answer older than the change is served once it is acknowledged.
    this.clear();
    if (payload === undefined || !/^\d+$/.test(payload)) {
      // Reconnected: changes may have been missed; the next renewal reads the counter again.
      this.seenChange = undefined;
      return;
    }
    const value = BigInt(payload);
    if (this.seenChange === undefined || value <= this.seenChange) return;
    this.seenChange = value;
    if (this.behindAt !== undefined && value >= this.behindAt) this.behindAt = undefined;
    void this.acknowledge().catch((error: unknown) => {
      // Unacknowledged, a revoker waits out this reader's lease instead.
      this.logger.warn({ err: error }, "could not acknowledge an API key change");
    });
  }

  /** Writes what this reader has seen and renews its lease, in one upsert. */
  private retrySoon(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.renewal = this.renew();
    }, LISTENER_RETRY_MS);
    this.retry.unref();
  }

  private async acknowledge(): Promise<void> {
    await this.pool.query(
      `INSERT INTO api_key_readers (id, seen_change, heartbeat_at) VALUES ($1, $2, now())
       ON CONFLICT (id) DO UPDATE
       SET seen_change = GREATEST(api_key_readers.seen_change, EXCLUDED.seen_change), heartbeat_at = now()`,
      [this.id, (this.seenChange ?? 0n).toString()],
    );
  }

  /**
   * Renews the lease. A reader that has not read the counter yet (start, reconnect) takes it as
   * seen: every change up to it is committed, and the cache is emptied again after the read, so
   * no lookup that began before it can store an older answer. A reader whose counter stays ahead
   * of what notifications brought for a whole heartbeat has a listener that stopped delivering.
   */
  private async renew(): Promise<void> {
    const started = Date.now();
    try {
      const listeningBefore = this.changes.listening();
      const { rows } = await this.pool.query<{ value: string }>(
        "SELECT value::text FROM api_key_changes WHERE id = 1",
      );
      const counter = BigInt(rows[0]?.value ?? "0");
      if (this.seenChange === undefined) {
        // Only once notifications arrive: a change after this read is then sure to be notified.
        if (listeningBefore) {
          this.seenChange = counter;
          this.clear();
          // Once per (re)start rather than every heartbeat: revokers skip stale rows anyway.
          await this.pool.query("DELETE FROM api_key_readers WHERE heartbeat_at < now() - $1::interval", [
            FORGET_READERS_AFTER,
          ]);
        } else {
          this.retrySoon();
        }
      } else if (counter > this.seenChange) {
        if (this.behindAt !== undefined)
          this.logger.warn("API key change notifications lag; keys are looked up directly");
        this.behindAt = counter;
        this.clear();
      } else {
        this.behindAt = undefined;
      }
      await this.acknowledge();
      this.trustedUntil = started + TRUSTED_FOR_MS;
    } catch (error) {
      this.logger.warn(
        { err: error },
        "could not renew the API key cache's lease; keys are looked up directly",
      );
    }
  }
}

const ACKNOWLEDGEMENT_POLL_MS = 10;

/**
 * Waits until every API process with a live lease has taken in the latest key change (for a
 * revocation: until no replica can accept the key any more), or until a lease has run out, by
 * which time a process that did not acknowledge no longer trusts its cache.
 */
export async function untilReadersSawLatestChange(db: Database): Promise<void> {
  const latest = await db.apiKeyChange.findUnique({ where: { id: 1 }, select: { value: true } });
  if (!latest) return;
  const deadline = Date.now() + READER_LEASE_MS;
  while (Date.now() < deadline) {
    const behind = await db.apiKeyReader.count({
      where: {
        seenChange: { lt: latest.value },
        heartbeatAt: { gt: new Date(Date.now() - READER_LEASE_MS) },
      },
    });
    if (behind === 0) return;
    await sleep(ACKNOWLEDGEMENT_POLL_MS);
  }
}
