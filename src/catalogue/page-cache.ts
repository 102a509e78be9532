import type { Database } from "../db/prisma-client";
import type { Prisma } from "../generated/prisma/client";

export interface CachedPage {
  etag: string | null;
  lastModified: string | null;
  contentHash: string;
  extracted: Prisma.JsonValue | null;
}

export interface PageCacheWrite extends CachedPage {
  url: string;
  fetchedAt: Date;
}

/** Validators and fingerprints of a source's pages, for conditional and skip-unchanged re-crawls. */
export async function loadPageCache(db: Database, sourceId: string): Promise<Map<string, CachedPage>> {
  const rows = await db.pageCache.findMany({
    where: { sourceId },
    select: { url: true, etag: true, lastModified: true, contentHash: true, extracted: true },
  });
  return new Map(rows.map(({ url, ...page }) => [url, page]));
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
