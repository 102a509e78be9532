import type { ServiceSort } from "../../src/catalogue/service-queries";
import { serviceOrder } from "../../src/catalogue/service-queries";
import type { ReadPool } from "../../src/db/read-pool";
import { catalogueSerialisers } from "../../src/http/catalogue-listing";
import type { Catalogue } from "../../src/search/load/catalogue";
import { CatalogueItems } from "../../src/search/page/catalogue-items";
import type { ServiceFilters } from "../../src/search/query/filters";
import { parseTsQuery, type TsQuery } from "../../src/search/query/tsquery";

/** The first 50 service items of a loaded catalogue matching the filters, in a sort, as parsed JSON. */
export async function serviceItems<T>(
  pool: ReadPool,
  catalogue: Catalogue,
  filters: ServiceFilters,
  sort: ServiceSort,
): Promise<T[]> {
  const found = catalogue.services.find(
    filters,
    serviceOrder(undefined, sort),
    { offset: 0, limit: 50 },
    undefined,
    Date.now(),
  );
  const items = await new CatalogueItems(pool, catalogueSerialisers).serviceItems(
    catalogue.snapshot,
    catalogue.services.ids(found),
  );
  return items.flatMap((item) => (item === undefined ? [] : [JSON.parse(item.toString()) as T]));
}

/** The first 50 endpoint items of a loaded catalogue in its default order, as parsed JSON (without `verified`). */
export async function endpointItems<T>(
  pool: ReadPool,
  catalogue: Catalogue,
): Promise<Array<T & { verified: boolean }>> {
  const { page, verified } = catalogue.endpoints.list(
    {},
    undefined,
    { offset: 0, limit: 50 },
    undefined,
    Date.now(),
  );
  const items = await new CatalogueItems(pool, catalogueSerialisers).endpointItems(
    catalogue.snapshot,
    page.map((i) => catalogue.endpoints.id(i)),
  );
  return items.flatMap((item, k) =>
    item === undefined
      ? []
      : [
          JSON.parse(
            Buffer.concat([item.head, Buffer.from(`"verified":${verified[k]},`), item.tail]).toString(),
          ),
        ],
  );
}

/** A plain tsquery as Postgres prints it. */
const query = (text: string): TsQuery => {
  const parsed = parseTsQuery(text);
  if (parsed === null) throw new Error(`not a tsquery: ${text}`);
  return parsed;
};

/**
 * What a catalogue answers, as ids in order: services and endpoints for some queries (ranked,
 * filtered, sorted by price), and services listed by each sort and a few column filters without q.
 */
export function answers(catalogue: Catalogue) {
  const paging = { offset: 0, limit: 50 };
  const now = Date.now();
  const searches = ["'weather'", "'weather' & 'forecast'", "'stock' | 'quot'", "!'weather'"].map((text) => {
    const found = catalogue.services.find(
      { status: "all" },
      serviceOrder(text, undefined),
      paging,
      query(text),
      now,
    );
    const endpoints = catalogue.endpoints.list({}, undefined, paging, query(text), now);
    const posts = catalogue.endpoints.list({ method: "POST" }, "price", paging, query(text), now);
    return {
      text,
      services: catalogue.services.ids(found),
      payable: catalogue.services.payableEndpoints(found),
      total: found.total,
      endpoints: endpoints.page.map((i) => catalogue.endpoints.id(i)),
      posts: posts.page.map((i) => catalogue.endpoints.id(i)),
    };
  });
  const lists = (["name", "volume", "uptime", "price", "updated"] as const).map((sort) => {
    const found = catalogue.services.find(
      { status: "listed", minUptime: 0.5 },
      serviceOrder(undefined, sort),
      paging,
      undefined,
      now,
    );
    return { sort, services: catalogue.services.ids(found), total: found.total };
  });
  return { searches, lists };
}
