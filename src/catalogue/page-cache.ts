import type { Database } from "../db/prisma-client";
import type { Prisma } from "../generated/prisma/client";

/** What a crawl keeps in memory per page: enough for a conditional GET and a skip-unchanged. */
export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
  contentHash: string;
  /** When the page was last fetched or revalidated: detail pages are revisited oldest first. */
  fetchedAt: Date;
}

export interface PageCacheWrite extends PageValidators {
  url: string;
  /** For listing pages: what the page yielded, so a 304 still tells which services it lists. */
  extracted: Prisma.JsonValue | null;
}

/**
 * Rows a crawl's start-up reads per query (page cache, known services): 100,000 rows in one
 * query made the client hold every row several times over at once (a re-crawl's main heap
 * peaked at 928 MB, bench/crawl-memory.ts at 100,000 services); in pages only one page's copies
 * are alive beside the map being filled.
 */
export const LOAD_PAGE_ROWS = 10_000;

/**
 * Validators of a source's pages, for conditional and skip-unchanged re-crawls, read in pages of
 * LOAD_PAGE_ROWS by URL. Without what listing pages yielded: that is read one page at a time when
 * a page turns out unchanged (`loadExtracted`), so memory does not grow with it.
 */
export async function loadPageValidators(
  db: Database,
  sourceId: string,
): Promise<Map<string, PageValidators>> {
  const pages = new Map<string, PageValidators>();
  let after: string | undefined;
  for (;;) {
    const rows = await db.pageCache.findMany({
      where: { sourceId, ...(after === undefined ? {} : { url: { gt: after } }) },
      orderBy: { url: "asc" },
      take: LOAD_PAGE_ROWS,
      select: { url: true, etag: true, lastModified: true, contentHash: true, fetchedAt: true },
    });
    for (const { url, ...page } of rows) pages.set(url, page);
    if (rows.length < LOAD_PAGE_ROWS) return pages;
    after = rows.at(-1)!.url;
  }
}

/** What an unchanged page yielded when it was last read, or null when nothing was kept. */
export async function loadExtracted(
  db: Database,
  sourceId: string,
  url: string,
): Promise<Prisma.JsonValue | null> {
  const row = await db.pageCache.findUnique({
    where: { sourceId_url: { sourceId, url } },
    select: { extracted: true },
  });
  return row?.extracted ?? null;
}

/** Pages found unchanged (a 304 or the same bytes): revalidated now, so they wait longest next time. */
export async function markPagesChecked(
  db: Pick<Database, "$executeRaw">,
  sourceId: string,
  urls: string[],
  at: Date,
): Promise<void> {
  if (urls.length === 0) return;
  await db.$executeRaw`
    UPDATE page_cache SET fetched_at = ${at}
    WHERE source_id = ${sourceId}::uuid AND url = ANY(${urls}::text[])`;
}

/** One statement per batch: INSERT … ON CONFLICT over unnest'ed arrays. */
export async function savePageCache(
  db: Pick<Database, "$executeRaw">,
  sourceId: string,
  pages: PageCacheWrite[],
): Promise<void> {
  if (pages.length === 0) return;
  await db.$executeRaw`
    INSERT INTO page_cache (source_id, url, etag, last_modified, content_hash, extracted, fetched_at, updated_at)
    SELECT ${sourceId}::uuid, p.url, p.etag, p.last_modified, p.content_hash, p.extracted::jsonb, p.fetched_at, now()
    FROM unnest(
      ${pages.map((p) => p.url)}::text[],
      ${pages.map((p) => p.etag)}::text[],
      ${pages.map((p) => p.lastModified)}::text[],
      ${pages.map((p) => p.contentHash)}::text[],
      ${pages.map((p) => (p.extracted === null ? null : JSON.stringify(p.extracted)))}::text[],
      ${pages.map((p) => p.fetchedAt)}::timestamptz[]
    ) AS p(url, etag, last_modified, content_hash, extracted, fetched_at)
    ON CONFLICT (source_id, url) DO UPDATE SET
      etag = EXCLUDED.etag,
      last_modified = EXCLUDED.last_modified,
      content_hash = EXCLUDED.content_hash,
      extracted = EXCLUDED.extracted,
      fetched_at = EXCLUDED.fetched_at,
      updated_at = now()`;
}
