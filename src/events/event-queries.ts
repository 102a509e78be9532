import type { Database } from "../db/prisma-client";
import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import type { EventOwner } from "./emit";

/** An event as consumers receive it (pull API and webhook payloads). */
export interface EventJson {
  id: string;
  type: string;
  version: number;
  created_at: string;
  data: Record<string, unknown>;
}

export interface EventPage {
  items: EventJson[];
  has_more: boolean;
  /** Pass as `after` to read on; the last item's position, or the given cursor on an empty page. */
  next_cursor: string | null;
}

export interface EventFilter {
  after?: string;
  types?: readonly string[];
  serviceId?: string;
  limit: number;
  /** The reader's key: owned events of this organisation and environment are included. */
  owner?: EventOwner;
}

/** "<tx_id>.<seq>": opaque to consumers, both parts whole numbers. */
const CURSOR = /^(\d{1,20})\.(\d{1,20})$/;

export function isEventCursor(text: string): boolean {
  return CURSOR.test(text);
}

interface EventRow {
  id: string;
  type: string;
  version: number;
  created_at: Date;
  data: Record<string, unknown>;
  tx_id: string;
  seq: string;
}

/**
 * Events in a stable order: by (transaction id, seq), and only from transactions older than every
 * transaction still running (pg_snapshot_xmin). A transaction that commits later has a higher
 * id than all of those, so its events land after any cursor already handed out: none is skipped,
 * however transactions interleave. The price: a long writing transaction delays later events
 * until it ends.
 */
export async function getEvents(pool: Queryable, filter: EventFilter): Promise<EventPage> {
  const match = filter.after ? CURSOR.exec(filter.after) : null;
  const after = match
    ? Prisma.sql`AND (tx_id, seq) > (${match[1]}::bigint, ${match[2]}::bigint)`
    : Prisma.empty;
  const owner = filter.owner
    ? Prisma.sql`OR (organisation_id = ${filter.owner.organisationId}::uuid AND environment = ${filter.owner.environment}::environment)`
    : Prisma.empty;
  const types = filter.types?.length ? Prisma.sql`AND type = ANY(${filter.types}::text[])` : Prisma.empty;
  const service = filter.serviceId ? Prisma.sql`AND service_id = ${filter.serviceId}::uuid` : Prisma.empty;
  const rows = await queryRows<EventRow>(
    pool,
    Prisma.sql`
      SELECT id, type, version, created_at, data, tx_id::text AS tx_id, seq::text AS seq
      FROM events
      WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        ${after} ${types} ${service}
        AND (organisation_id IS NULL ${owner})
      ORDER BY tx_id, seq
      LIMIT ${filter.limit + 1}`,
  );
  const items = rows.slice(0, filter.limit);
  const last = items.at(-1);
  return {
    items: items.map(eventJson),
    has_more: rows.length > filter.limit,
    next_cursor: last ? `${last.tx_id}.${last.seq}` : (filter.after ?? null),
  };
}

export function eventJson(row: Pick<EventRow, "id" | "type" | "version" | "created_at" | "data">): EventJson {
  return {
    id: row.id,
    type: row.type,
    version: row.version,
    created_at: new Date(row.created_at).toISOString(),
    data: row.data,
  };
}

/** Deletes events older than the retention (their deliveries go with them); returns how many. */
export async function pruneEvents(db: Database, retentionDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  return db.$executeRaw`DELETE FROM events WHERE created_at < ${before}`;
}
