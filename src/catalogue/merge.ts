import type { Database } from "../db/prisma-client";
import { refreshServiceSearch } from "./search-index";

/** Namespace of the merge's transaction lock (see source-lock.ts for the crawl locks). */
const MERGE_LOCK = "x402-catalogue:merge";

/**
 * Groups every service row into catalogue entries by domain (`canonical_id`). Rows sharing a
 * lower-case domain form one entry whose primary is a listed directory row if there is one (a
 * directory page says more about a service than a feed item), else a listed row, else any row;
 * ties go to the row seen first, then the smallest id. A row without a domain is its own entry.
 *
 * One statement over the whole table, writing only rows whose entry changed, so it is cheap to
 * run after every crawl and idempotent. A transaction-level advisory lock serialises concurrent
 * merges (two sources finishing together), which would otherwise lock rows in different orders.
 * Returns how many rows changed entry.
 */
export async function mergeServicesByDomain(db: Database): Promise<number> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${MERGE_LOCK}))`;
    const changed = await tx.$queryRaw<{ id: string; entry: string; previous: string | null }[]>`
      WITH entry AS (
        SELECT s.id, s.canonical_id AS previous,
          CASE WHEN nullif(s.domain, '') IS NULL THEN s.id
          ELSE first_value(s.id) OVER (
            PARTITION BY lower(s.domain)
            ORDER BY (s.status = 'listed' AND src.kind = 'html_directory') DESC, (s.status = 'listed') DESC,
                     s.first_seen_at, s.id)
          END AS canonical_id
        FROM services s JOIN sources src ON src.id = s.source_id
      )
      UPDATE services s SET canonical_id = entry.canonical_id, updated_at = now()
      FROM entry
      WHERE s.id = entry.id AND s.canonical_id IS DISTINCT FROM entry.canonical_id
      RETURNING s.id::text, entry.canonical_id::text AS entry, entry.previous::text AS previous`;
    // Search documents cover a whole entry: rebuild those of entries that gained or lost rows.
    // A row that merely becomes its own entry (unmerged → itself) changes no document.
    const affected = changed
      .filter((row) => row.entry !== row.id || (row.previous !== null && row.previous !== row.id))
      .flatMap((row) => [row.id, row.entry, ...(row.previous ? [row.previous] : [])]);
    await refreshServiceSearch(tx, affected);
    return changed.length;
  });
}
