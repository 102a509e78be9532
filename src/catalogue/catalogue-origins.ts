import type { Database } from "../db/prisma-client";

/**
 * Every origin the other sources list: the scheme, host and port of each listed endpoint's URL,
 * and `https://domain` for a listed service that shows no endpoint. Rows of origin manifests
 * are left out on purpose: a manifest adds to an entry that a directory or feed lists, it does
 * not keep an origin in the catalogue on its own (configured origins aside). Registered origins
 * are left out too: their own source reads their manifest (src/registrations), so one manifest
 * is never listed by two sources. Sorted, distinct, normalised by the URL parser (lower-case
 * host, default port dropped, credentials dropped).
 */
export async function listCatalogueOrigins(db: Database): Promise<string[]> {
  const rows = await db.$queryRaw<{ origin: string }[]>`
    SELECT DISTINCT substring(e.url from '^(https?://[^/?#]+)') AS origin
    FROM endpoints e
    JOIN services s ON s.id = e.service_id
    JOIN sources src ON src.id = s.source_id
    WHERE s.status = 'listed' AND src.kind NOT IN ('origin_manifest', 'registered') AND e.url ~* '^https?://'
    UNION
    SELECT DISTINCT 'https://' || lower(s.domain)
    FROM services s
    JOIN sources src ON src.id = s.source_id
    WHERE s.status = 'listed' AND src.kind NOT IN ('origin_manifest', 'registered') AND nullif(s.domain, '') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM endpoints e WHERE e.service_id = s.id)`;
  const registered = await db.source.findMany({ where: { kind: "registered" }, select: { baseUrl: true } });
  const own = new Set(registered.map((source) => source.baseUrl));
  const origins = new Set<string>();
  for (const { origin } of rows) {
    if (URL.canParse(origin) && !own.has(new URL(origin).origin)) origins.add(new URL(origin).origin);
  }
  return [...origins].sort();
}
