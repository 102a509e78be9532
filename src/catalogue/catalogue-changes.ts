import type { Database } from "../db/prisma-client";
import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";

/**
 * Whether the catalogue changed since a snapshot: triggers leave a row per changing transaction
 * (see the catalogue_changes migration), so "changed" means some row is not visible in the snapshot
 * a reader loaded from. Snapshots are pg_snapshot text ("xmin:xmax:xip,…").
 */

/** The snapshot of the current REPEATABLE READ transaction (call it first in that transaction). */
export async function currentSnapshot(db: Queryable): Promise<string> {
  const [row] = await queryRows<{ snapshot: string }>(
    db,
    Prisma.sql`SELECT pg_current_snapshot()::text AS snapshot`,
  );
  if (!row) throw new Error("pg_current_snapshot() returned nothing");
  return row.snapshot;
}

/** Rows of `table` (a change log keyed by transaction_id) from transactions the snapshot does not see. */
function unseenBy(snapshot: string, table: "catalogue_changes" | "seen_changes" | "probe_changes") {
  return Prisma.sql`SELECT 1 FROM ${Prisma.raw(table)} c
    WHERE c.transaction_id >= pg_snapshot_xmin(${snapshot}::pg_snapshot)::text::bigint
      AND NOT pg_visible_in_snapshot(c.transaction_id::text::xid8, ${snapshot}::pg_snapshot)`;
}

/** Some transaction that changed the catalogue committed after (or was running at) the snapshot. */
export async function changedSince(db: Queryable, snapshot: string): Promise<boolean> {
  return (await changesSince(db, snapshot)).shape;
}

/**
 * What committed after the snapshot: changes of the catalogue's shape (a reader loads it whole),
 * services marked as seen (last_seen_at only) and probe results (both brought in place).
 */
export interface ChangesSince {
  shape: boolean;
  seen: boolean;
  probes: boolean;
}

export async function changesSince(db: Queryable, snapshot: string): Promise<ChangesSince> {
  const [row] = await queryRows<ChangesSince>(
    db,
    Prisma.sql`SELECT EXISTS (${unseenBy(snapshot, "catalogue_changes")}) AS shape,
      EXISTS (${unseenBy(snapshot, "seen_changes")}) AS seen,
      EXISTS (${unseenBy(snapshot, "probe_changes")}) AS probes`,
  );
  return row ?? { shape: true, seen: false, probes: false };
}

/**
 * Endpoints whose probe-derived state (probe columns, probe-origin payment options, trust
 * verdicts) changed in a transaction the snapshot does not see: triggers leave a row per endpoint
 * and transaction (see the probe_changes and trust_verdict_changes migrations). Called in a newer snapshot, it returns what that one adds.
 */
export async function probedSince(db: Queryable, snapshot: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    Prisma.sql`
      SELECT DISTINCT c.endpoint_id::text AS id FROM probe_changes c
      WHERE c.transaction_id >= pg_snapshot_xmin(${snapshot}::pg_snapshot)::text::bigint
        AND NOT pg_visible_in_snapshot(c.transaction_id::text::xid8, ${snapshot}::pg_snapshot)`,
  );
  return rows.map((row) => row.id);
}

/** The channel writers NOTIFY once their changes are committed, so API processes reload at once. */
export const CATALOGUE_CHANGED_CHANNEL = "catalogue_changed";

/**
 * Tells every listening API process that the catalogue changed (call after the writes committed;
 * outside a transaction the notification is sent at once). Their periodic check stays the fallback.
 */
export async function announceCatalogueChange(db: Database): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${CATALOGUE_CHANGED_CHANNEL}, '')`;
}

/** How long the change logs keep their rows (see pruneCatalogueChanges; images depend on it too). */
export const CHANGE_LOG_RETENTION_HOURS = 24;

/**
 * Forgets changes older than a day: readers check for changes far more often than that (at most
 * API_INDEX_REFRESH_SECONDS, ≤ 1 hour, apart), so they have seen them long before; a catalogue
 * image is read only while younger (see catalogue-images.ts).
 */
export async function pruneCatalogueChanges(db: Database): Promise<number> {
  let pruned = 0;
  for (const table of ["catalogue_changes", "seen_changes", "probe_changes"]) {
    pruned += await db.$executeRaw`DELETE FROM ${Prisma.raw(table)}
      WHERE changed_at < now() - make_interval(hours => ${CHANGE_LOG_RETENTION_HOURS})`;
  }
  return pruned;
}
