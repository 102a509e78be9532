import { queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { completePage, type Page, type Paging } from "./paging";

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

/** Categories of listed services, each with its count. */
export function listCategories(pool: ReadPool, paging: Paging): Promise<Page<TaxonomyCount>> {
  return countedPage(
    pool,
    Prisma.sql`
      SELECT s.category AS value, count(*)::int AS "serviceCount"
      FROM services s
      WHERE s.status = 'listed' AND s.category IS NOT NULL
      GROUP BY s.category`,
    paging,
  );
}

/** Tags of listed services, each with its count. */
export function listTags(pool: ReadPool, paging: Paging): Promise<Page<TaxonomyCount>> {
  return countedPage(
    pool,
    Prisma.sql`
      SELECT t.tag AS value, count(*)::int AS "serviceCount"
      FROM service_tags t JOIN services s ON s.id = t.service_id
      WHERE s.status = 'listed'
      GROUP BY t.tag`,
    paging,
  );
}
