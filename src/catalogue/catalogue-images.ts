import type pg from "pg";
import { inLongTransaction } from "../db/long-transaction";
import type { ReadPool } from "../db/read-pool";
import { readInOneSnapshot } from "../db/read-snapshot";
import { CHANGE_LOG_RETENTION_HOURS } from "./catalogue-changes";

/**
 * Images of the in-memory catalogue (see src/search/catalogue-image.ts for what one holds): a row
 * per image and its bytes in chunks of about a megabyte. Plain pg on the read pool: the chunks go in as
 * binary parameters (Buffers) and come back as base64 (see imageChunks), which no
 * typed model adds anything to.
 */

export interface ImageHeader {
  format: number;
  /** pg_snapshot text of the catalogue the image holds. */
  snapshot: string;
  services: number;
  endpoints: number;
}

export interface StoredImage extends ImageHeader {
  id: string;
  /** Byte length of each piece, in order. */
  pieces: number[];
  bytes: number;
  createdAt: Date;
}

/**
 * An image is read only while the change logs still hold everything after its snapshot (they are
 * pruned after CHANGE_LOG_RETENTION_HOURS), with an hour to spare for the transactions that were
 * running when it was taken.
 */
const IMAGE_USABLE_HOURS = CHANGE_LOG_RETENTION_HOURS - 1;

/** One advisory lock for writing images: one process writes at a time, the others skip theirs. */
const WRITE_LOCK = "catalogue-image";

const IMAGE_COLUMNS = `id::text AS id, format, snapshot, services, endpoints, pieces, bytes::float8 AS bytes,
  created_at AS "createdAt"`;

/**
 * The newest image of this format that can be read: younger than IMAGE_USABLE_HOURS, and taken in
 * this database's history (a snapshot from beyond the current one is another database's: a restore,
 * whose transaction ids start again lower, would otherwise make every change look already seen).
 */
async function newestImage(db: pg.Pool | pg.PoolClient, format: number): Promise<StoredImage | null> {
  const { rows } = await db.query<StoredImage>(
    `SELECT ${IMAGE_COLUMNS} FROM catalogue_images
     WHERE format = $1 AND created_at > now() - make_interval(hours => $2)
       AND pg_snapshot_xmax(snapshot::pg_snapshot) <= pg_snapshot_xmax(pg_current_snapshot())
     ORDER BY id DESC LIMIT 1`,
    [format, IMAGE_USABLE_HOURS],
  );
  return rows[0] ?? null;
}

/**
 * Reads the newest usable image of this format: `read` gets its header and its chunks in order,
 * all in one snapshot (an image written and its predecessor deleted meanwhile cannot lose a chunk
 * under the reader). Null when there is none.
 */
export function readNewestImage<T>(
  pool: ReadPool,
  format: number,
  read: (image: StoredImage, chunks: AsyncIterable<Buffer>) => Promise<T>,
): Promise<T | null> {
  return readInOneSnapshot(pool, async (client) => {
    const image = await newestImage(client, format);
    return image === null ? null : read(image, imageChunks(client, image.id));
  });
}

/**
 * The image's chunks in order, one query each (a chunk is about a megabyte). As base64: pg decodes every
 * result as text, and bytea's hex text is twice the bytes and took 3.4-3.7 s against 1.7-1.9 s
 * for 254 MB here (Postgres encodes base64 quickly, Node decodes it at ~1 GB/s).
 */
async function* imageChunks(client: pg.PoolClient, id: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq += 1) {
    const { rows } = await client.query<{ data: string }>(
      "SELECT encode(data, 'base64') AS data FROM catalogue_image_chunks WHERE image_id = $1 AND seq = $2",
      [id, seq],
    );
    const chunk = rows[0]?.data;
    if (chunk === undefined) return;
    yield Buffer.from(chunk, "base64");
  }
}

/** Where a writer puts an image's chunks, in order (see writeImage). */
export interface ImageWriter {
  /** Adds the next chunk. */
  chunk(data: Buffer): Promise<void>;
}

/**
 * Writes an image in one transaction, if this process is the only one writing and `worthWriting`
 * says so once the lock is held (a process that wrote meanwhile may have made it pointless):
 * `write` adds its chunks; then the piece lengths are recorded, and every older image of the
 * format, and any image past its use, is deleted. Readers see the new image whole or not at all.
 * Returns whether it was written.
 */
export function writeImage(
  pool: ReadPool,
  header: ImageHeader,
  worthWriting: (newest: StoredImage | null, client: pg.PoolClient) => Promise<boolean>,
  write: (writer: ImageWriter) => Promise<number[]>,
): Promise<boolean> {
  // Hundreds of MB at 100,000 services: a long transaction. Nothing is written when it is not
  // worth it, so that path commits what it only read.
  return inLongTransaction(pool, "BEGIN", async (client) => {
    const { rows } = await client.query<{ locked: boolean }>(
      "SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked",
      [WRITE_LOCK],
    );
    if (rows[0]?.locked !== true || !(await worthWriting(await newestImage(client, header.format), client)))
      return false;
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO catalogue_images (format, snapshot, services, endpoints, pieces, bytes)
       VALUES ($1, $2, $3, $4, '{}', 0) RETURNING id::text AS id`,
      [header.format, header.snapshot, header.services, header.endpoints],
    );
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error("inserting the image returned no id");
    let seq = 0;
    let bytes = 0;
    const pieces = await write({
      async chunk(data) {
        await client.query("INSERT INTO catalogue_image_chunks (image_id, seq, data) VALUES ($1, $2, $3)", [
          id,
          seq,
          data,
        ]);
        seq += 1;
        bytes += data.length;
      },
    });
    await client.query("UPDATE catalogue_images SET pieces = $2, bytes = $3 WHERE id = $1", [
      id,
      pieces,
      bytes,
    ]);
    await client.query(
      `DELETE FROM catalogue_images
       WHERE (format = $1 AND id < $2) OR created_at < now() - make_interval(hours => $3)`,
      [header.format, id, IMAGE_USABLE_HOURS],
    );
    return true;
  });
}
