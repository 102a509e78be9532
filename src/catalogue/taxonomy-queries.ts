import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { isEntryPrimary } from "./catalogue-entries";
import { completePage, type Page, type Paging } from "./paging";
import { serviceTags } from "./search-documents";

/** A category or tag value with the number of listed services that carry it. */
export interface TaxonomyCount {
  value: string;
  serviceCount: number;
}

async function countedPage(
  pool: ReadPool,
  grouped: Prisma.Sql,
  paging: Paging,
): Promise<Page<TaxonomyCount>> {
  // Most used first, then alphabetical, so the order is total and paging stable.
  const rows = await queryRows<TaxonomyCount>(
    pool,
    Prisma.sql`
      SELECT g.value, g."serviceCount"
      FROM (${grouped}) g
      ORDER BY g."serviceCount" DESC, g.value ASC
      LIMIT ${paging.limit} OFFSET ${paging.offset}`,
  );
  return completePage(rows, paging, async () => {
    const [count] = await queryRows<{ total: number }>(
      pool,
      Prisma.sql`SELECT count(*)::int AS total FROM (${grouped}) g`,
    );
    return count?.total ?? 0;
  });
}

/*
 * Counts are of catalogue entries as the list shows them (one per entry, with its primary row's
 * status and category and the entry's tags), so a count equals the total of the list filtered by
 * that value, however many sources list an entry.
 */

/** Categories of listed entries, each with its count. */
export function listCategories(pool: ReadPool, paging: Paging): Promise<Page<TaxonomyCount>> {
  return countedPage(
    pool,
    Prisma.sql`
      SELECT s.category AS value, count(*)::int AS "serviceCount"
      FROM services s
      WHERE s.status = 'listed' AND s.category IS NOT NULL AND ${isEntryPrimary("s")}
      GROUP BY s.category`,
    paging,
  );
}

/** Tags of listed entries, each with its count. */
export function listTags(pool: ReadPool, paging: Paging): Promise<Page<TaxonomyCount>> {
  return countedPage(
    pool,
    Prisma.sql`
      SELECT t.tag AS value, count(*)::int AS "serviceCount"
      FROM services s
      CROSS JOIN LATERAL unnest(coalesce((SELECT r.tags FROM service_search r WHERE r.service_id = s.id), ${serviceTags(Prisma.sql`s`)})) AS t(tag)
      WHERE s.status = 'listed' AND ${isEntryPrimary("s")}
      GROUP BY t.tag`,
    paging,
  );
}
