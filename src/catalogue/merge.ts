import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { refreshServiceSearch } from "./search-documents";

/** Namespace of the merge's transaction lock (see source-lock.ts for the crawl locks). */
const MERGE_LOCK = "x402-catalogue:merge";

/**
 * Groups every service row into catalogue entries by domain (`canonical_id`) and gives each entry
 * its stable shown id (`entry_id`, see the schema). Rows sharing a
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
  return inTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${MERGE_LOCK}))`;
    const changed = await tx.$queryRaw<{ id: string; entry: string; previous: string | null }[]>`
      WITH entry AS (
        SELECT s.id, s.canonical_id AS previous, lower(nullif(s.domain, '')) AS domain,
          CASE WHEN nullif(s.domain, '') IS NULL THEN s.id
          ELSE first_value(s.id) OVER (
            PARTITION BY lower(s.domain)
            ORDER BY (s.status = 'listed' AND src.kind = 'html_directory') DESC, (s.status = 'listed') DESC,
                     s.first_seen_at, s.id)
          END AS canonical_id
        FROM services s JOIN sources src ON src.id = s.source_id
      ),
      -- The id a domain's entry is shown under: the one most of its rows already carry (ties: the
      -- one its earliest row carries), so a new primary or a relisted row never changes it.
      shown AS (
        SELECT DISTINCT ON (lower(s.domain)) lower(s.domain) AS domain, s.entry_id
        FROM services s
        WHERE s.entry_id IS NOT NULL AND nullif(s.domain, '') IS NOT NULL
        GROUP BY lower(s.domain), s.entry_id
        ORDER BY lower(s.domain), count(*) DESC, min(s.first_seen_at), s.entry_id
      ),
      target AS (
        SELECT entry.id, entry.previous, entry.canonical_id,
          CASE WHEN entry.domain IS NULL THEN coalesce(s.entry_id, s.id)
          ELSE coalesce(shown.entry_id, entry.canonical_id) END AS entry_id
        FROM entry JOIN services s ON s.id = entry.id LEFT JOIN shown ON shown.domain = entry.domain
      )
      UPDATE services s SET canonical_id = target.canonical_id, entry_id = target.entry_id, updated_at = now()
      FROM target
      WHERE s.id = target.id
        AND (s.canonical_id IS DISTINCT FROM target.canonical_id OR s.entry_id IS DISTINCT FROM target.entry_id)
      RETURNING s.id::text, target.canonical_id::text AS entry, target.previous::text AS previous`;
    // Search documents cover a whole entry: rebuild those of entries that gained or lost rows.
    // A row that merely becomes its own entry (unmerged → itself) changes no document.
    const affected = changed
      .filter((row) => row.entry !== row.id || (row.previous !== null && row.previous !== row.id))
      .flatMap((row) => [row.id, row.entry, ...(row.previous ? [row.previous] : [])]);
    await refreshServiceSearch(tx, affected);
    return changed.length;
  });
}
