import { Prisma } from "../generated/prisma/client";

/**
 * The search documents of services and endpoints. Postgres cannot derive them by itself (they
 * span services, tags and endpoints), so whoever changes a service, its endpoints or its tags
 * calls refreshServiceSearch afterwards, in the same transaction when there is one.
 *
 * Service document (`service_search.document`), weighted so ts_rank puts name and tags first:
 *   A name + tags · B domain (also split into words) + category · C description + endpoint descriptions
 * Endpoint document (`endpoint_search.document`):
 *   A endpoint description · B URL path words + service name · C service category + method
 * `catalogue_search` is English stemming after unaccent (see the catalogue_search migration).
 * service_search also keeps the entry's tags and the service's endpoints as the API shows them, so a page of
 * services reads one row per service instead of running two subqueries per service.
 * The documents' words also go to `search_terms`, the vocabulary that misspelt query words are
 * corrected against (text-search.ts).
 */

/** Prisma client or transaction: the writer may call this inside its own transaction. */
export type SearchIndexWriter = Pick<Prisma.TransactionClient, "$executeRaw" | "$queryRaw">;

/** "https://x.test/v1/quotes/{symbol}?x=1" → " v1 quotes symbol x 1": path segments become words. */
const endpointPathWords = Prisma.sql`regexp_replace(
  regexp_replace(e.url, '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*', ''), '[^[:alnum:]]+', ' ', 'g')`;

/** "api.weather.test" → "api.weather.test api weather test": the host and its parts. */
const domainWords = Prisma.sql`coalesce(s.domain, '') || ' ' || regexp_replace(coalesce(s.domain, ''), '[^[:alnum:]]+', ' ', 'g')`;

/**
 * Ids of the rows of the catalogue entry of `s`: the entry's primary (coalesce(canonical_id, id))
 * and the rows merged into it. A domain listed by a directory and a feed is one entry, found by
 * words from either. Written as two plain index lookups (primary key, canonical_id index):
 * an expression lookup was planned as a scan while a first crawl filled the table.
 */
const entryRowIds = Prisma.sql`(
  SELECT coalesce(s.canonical_id, s.id)
  UNION SELECT m.id FROM services m WHERE m.canonical_id = coalesce(s.canonical_id, s.id))`;

const tagText = Prisma.sql`coalesce((SELECT string_agg(DISTINCT t.tag, ' ')
  FROM service_tags t WHERE t.service_id = ANY(ARRAY${entryRowIds})), '')`;

const endpointText = Prisma.sql`coalesce((SELECT string_agg(e.description, ' ' ORDER BY e.position, e.id)
  FROM endpoints e WHERE e.service_id = ANY(ARRAY${entryRowIds})), '')`;

/**
 * The tags the API shows for the entry of `s`: every tag any of its rows carries, sorted. The tag
 * filter, /v1/tags and the search document read the same set, so what is shown is what matches.
 */
const entryTags = Prisma.sql`ARRAY(SELECT DISTINCT t.tag FROM service_tags t
  WHERE t.service_id = ANY(ARRAY${entryRowIds}) ORDER BY t.tag)`;

/**
 * The row's own tags, sorted: what a reader shows for a row whose search document (which holds
 * the entry's tags) the writer has not built yet. `service` is the alias of its services row.
 */
export function serviceTags(service: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`ARRAY(SELECT t.tag FROM service_tags t WHERE t.service_id = ${service}.id ORDER BY t.tag)`;
}

/** The service's endpoints as the API shows them: [{method, url, description}] in page order. */
export function serviceEndpoints(service: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`coalesce((
    SELECT jsonb_agg(jsonb_build_object('method', e.method, 'url', e.url, 'description', e.description)
                     ORDER BY e.position, e.id)
    FROM endpoints e WHERE e.service_id = ${service}.id), '[]'::jsonb)`;
}

function refreshServices(scope: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO service_search (service_id, document, tags, endpoints, updated_at)
    SELECT s.id,
         setweight(to_tsvector('catalogue_search', s.name || ' ' || ${tagText}), 'A')
      || setweight(to_tsvector('catalogue_search', ${domainWords} || ' ' || coalesce(s.category, '')), 'B')
      || setweight(to_tsvector('catalogue_search', coalesce(s.description, '') || ' ' || ${endpointText}), 'C'),
      ${entryTags}, ${serviceEndpoints(Prisma.sql`s`)}, now()
    FROM services s
    WHERE ${scope}
    ORDER BY s.id
    ON CONFLICT (service_id) DO UPDATE SET document = EXCLUDED.document, tags = EXCLUDED.tags,
      endpoints = EXCLUDED.endpoints, updated_at = EXCLUDED.updated_at`;
}

function refreshEndpoints(scope: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO endpoint_search (endpoint_id, document, updated_at)
    SELECT e.id,
         setweight(to_tsvector('catalogue_search', coalesce(e.description, '')), 'A')
      || setweight(to_tsvector('catalogue_search', ${endpointPathWords} || ' ' || s.name), 'B')
      || setweight(to_tsvector('catalogue_search', coalesce(s.category, '') || ' ' || e.method), 'C'),
      now()
    FROM endpoints e JOIN services s ON s.id = e.service_id
    WHERE ${scope}
    ORDER BY e.id
    ON CONFLICT (endpoint_id) DO UPDATE SET document = EXCLUDED.document, updated_at = EXCLUDED.updated_at`;
}

/** Adds the documents' words to the vocabulary. */
function addTerms(scope: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO search_terms (term)
    SELECT DISTINCT word FROM (
      SELECT regexp_split_to_table(lower(unaccent(concat_ws(' ', s.name, ${domainWords}, s.category, s.description,
               ${tagText}))), '[^[:alnum:]]+') AS word
      FROM services s WHERE ${scope}
      UNION ALL
      SELECT regexp_split_to_table(lower(unaccent(concat_ws(' ', e.description, ${endpointPathWords}))), '[^[:alnum:]]+')
      FROM endpoints e JOIN services s ON s.id = e.service_id WHERE ${scope}
    ) AS words
    WHERE length(word) BETWEEN 3 AND 40
    ORDER BY word
    ON CONFLICT (term) DO NOTHING`;
}

/**
 * Rebuilds the search documents of these services and of all their endpoints (an endpoint's
 * document holds its service's name and category). Documents of deleted services and endpoints
 * go with them (ON DELETE CASCADE). Every upsert runs in key order, so concurrent writers take
 * their row locks in the same order and cannot deadlock.
 */
export async function refreshServiceSearch(db: SearchIndexWriter, serviceIds: string[]): Promise<void> {
  if (serviceIds.length === 0) return;
  // A row's words also belong to its entry's primary (the row the API lists): refresh it too.
  // Resolved first, so each statement below is a plain index lookup on the id list.
  const primaries = await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT c.canonical_id::text AS id FROM services c
    WHERE c.id = ANY(${serviceIds}::uuid[]) AND c.canonical_id IS NOT NULL AND c.canonical_id <> c.id`;
  const ids = [...new Set([...serviceIds, ...primaries.map((p) => p.id)])];
  const scope = Prisma.sql`s.id = ANY(${ids}::uuid[])`;
  await db.$executeRaw(refreshServices(scope));
  await db.$executeRaw(refreshEndpoints(scope));
  await db.$executeRaw(addTerms(scope));
}

/**
 * Rebuilds every search document and the vocabulary from scratch (after a bulk load, or a change
 * of the document definition); also drops words no service uses any more.
 */
export async function refreshAllSearch(db: SearchIndexWriter): Promise<void> {
  await db.$executeRaw(refreshServices(Prisma.sql`TRUE`));
  await db.$executeRaw(refreshEndpoints(Prisma.sql`TRUE`));
  await db.$executeRaw`DELETE FROM search_terms`;
  await db.$executeRaw(addTerms(Prisma.sql`TRUE`));
}
