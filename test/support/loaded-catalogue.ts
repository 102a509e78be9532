import type { ServiceSort } from "../../src/catalogue/service-queries";
import { serviceOrder } from "../../src/catalogue/service-queries";
import type { ReadPool } from "../../src/db/read-pool";
import { catalogueSerialisers } from "../../src/http/catalogue-listing";
import { CatalogueItems } from "../../src/search/catalogue-items";
import type { ServiceFilters } from "../../src/search/filters";
import type { LoadedCatalogue } from "../../src/search/loaded-catalogue";

/** The first 50 service items of a loaded catalogue matching the filters, in a sort, as parsed JSON. */
export async function serviceItems<T>(
  pool: ReadPool,
  index: LoadedCatalogue,
  filters: ServiceFilters,
  sort: ServiceSort,
): Promise<T[]> {
  const found = index.services.find(
    filters,
    serviceOrder(undefined, sort),
    { offset: 0, limit: 50 },
    undefined,
    Date.now(),
  );
  const items = await new CatalogueItems(pool, catalogueSerialisers).serviceItems(
    index.snapshot,
    index.services.ids(found),
  );
  return items.flatMap((item) => (item === undefined ? [] : [JSON.parse(item.toString()) as T]));
}

/** The first 50 endpoint items of a loaded catalogue in its default order, as parsed JSON (without `verified`). */
export async function endpointItems<T>(
  pool: ReadPool,
  index: LoadedCatalogue,
): Promise<Array<T & { verified: boolean }>> {
  const { page, verified } = index.endpoints.list(
    {},
    undefined,
    { offset: 0, limit: 50 },
    undefined,
    Date.now(),
  );
  const items = await new CatalogueItems(pool, catalogueSerialisers).endpointItems(
    index.snapshot,
    page.map((i) => index.endpoints.id(i)),
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
