import type { ServiceSort } from "../../src/catalogue/service-queries";
import { serviceOrder } from "../../src/catalogue/service-queries";
import type { ServiceFilters } from "../../src/search/filters";
import type { LoadedCatalogue } from "../../src/search/loaded-catalogue";

/** The first 50 service items of a loaded catalogue matching the filters, in a sort, as parsed JSON. */
export function serviceItems<T>(index: LoadedCatalogue, filters: ServiceFilters, sort: ServiceSort): T[] {
  const found = index.services.find(
    filters,
    serviceOrder(undefined, sort),
    { offset: 0, limit: 50 },
    undefined,
    Date.now(),
  );
  return index.services.listing(found).items.map((item) => JSON.parse(Buffer.concat(item).toString()) as T);
}
