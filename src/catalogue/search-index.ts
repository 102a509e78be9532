import { Prisma } from "../generated/prisma/client";

/**
 * The search documents of services and endpoints. Postgres cannot derive them by itself (they
 * span services, tags and endpoints), so whoever changes a service, its endpoints or its tags
 * calls refreshServiceSearch afterwards, in the same transaction when there is one.
 *
 * Service document (`services.search_vector`), weighted so ts_rank puts name and tags first:
 *   A name + tags · B domain (also split into words) + category · C description + endpoint descriptions
 * Endpoint document (`endpoints.search_vector`):
 *   A endpoint description · B URL path words + service name · C service category + method
 * `search_text` holds the same words lower-cased and unaccented, for pg_trgm typo matching.
 * `catalogue_search` is English stemming after unaccent (see the catalogue_search migration).
 */

/** Prisma client or transaction: the writer may call this inside its own transaction. */
export type SearchIndexWriter = Pick<Prisma.TransactionClient, "$executeRaw">;

/** "/v1/quotes/{symbol}?x=1" → " v1 quotes symbol x 1": path segments become searchable words. */
const endpointPathWords = Prisma.sql`regexp_replace(
  regexp_replace(e.url, '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*', ''), '[^[:alnum:]]+', ' ', 'g')`;

function refreshServices(scope: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    UPDATE services AS s
    SET search_vector =
          setweight(to_tsvector('catalogue_search', coalesce(s.name, '') || ' ' || doc.tags), 'A')
       || setweight(to_tsvector('catalogue_search', doc.domain_words || ' ' || coalesce(s.category, '')), 'B')
       || setweight(to_tsvector('catalogue_search', coalesce(s.description, '') || ' ' || doc.endpoint_text), 'C'),
        search_text = lower(unaccent(concat_ws(' ',
          s.name, doc.tags, doc.domain_words, s.category, s.description, doc.endpoint_text)))
    FROM (
      SELECT x.id,
        coalesce(x.domain, '') || ' ' || regexp_replace(coalesce(x.domain, ''), '[^[:alnum:]]+', ' ', 'g')
          AS domain_words,
        coalesce((SELECT string_agg(t.tag, ' ' ORDER BY t.tag) FROM service_tags t WHERE t.service_id = x.id), '')
          AS tags,
        coalesce((SELECT string_agg(e.description, ' ' ORDER BY e.position, e.id)
                  FROM endpoints e WHERE e.service_id = x.id), '') AS endpoint_text
      FROM services x
      WHERE ${scope}
    ) AS doc
    WHERE s.id = doc.id`;
}

function refreshEndpoints(scope: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    UPDATE endpoints AS e
    SET search_vector =
          setweight(to_tsvector('catalogue_search', coalesce(e.description, '')), 'A')
       || setweight(to_tsvector('catalogue_search', ${endpointPathWords} || ' ' || s.name), 'B')
       || setweight(to_tsvector('catalogue_search', coalesce(s.category, '') || ' ' || e.method), 'C'),
        search_text = lower(unaccent(concat_ws(' ', e.description, ${endpointPathWords}, s.name, s.category)))
    FROM services AS s
    WHERE s.id = e.service_id AND ${scope}`;
}

/** Rebuilds the search documents of these services and of all their endpoints. */
export async function refreshServiceSearch(db: SearchIndexWriter, serviceIds: string[]): Promise<void> {
  if (serviceIds.length === 0) return;
  const ids = [...new Set(serviceIds)];
  await db.$executeRaw(refreshServices(Prisma.sql`x.id = ANY(${ids}::uuid[])`));
  await db.$executeRaw(refreshEndpoints(Prisma.sql`s.id = ANY(${ids}::uuid[])`));
}

/** Rebuilds every search document (after a change of the document definition, or a bulk load). */
export async function refreshAllSearch(db: SearchIndexWriter): Promise<void> {
  await db.$executeRaw(refreshServices(Prisma.sql`TRUE`));
  await db.$executeRaw(refreshEndpoints(Prisma.sql`TRUE`));
}
