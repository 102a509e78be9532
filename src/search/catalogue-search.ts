import type { Paging } from "../catalogue/paging";
import { type ServiceSort, serviceOrder } from "../catalogue/service-queries";
import type { SortDirection } from "../catalogue/sql";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";
import { CatalogueKeeper, type CatalogueLoad } from "./freshness/catalogue-keeper";
import type { Catalogue, CatalogueSerialisers } from "./load/catalogue";
import { CatalogueItems } from "./page/catalogue-items";
import type { EndpointFilters, ServiceFilters } from "./query/filters";
import type { QueryReading } from "./query/partial-query";
import { type SearchAnswer, SearchQueries } from "./query/search-queries";
import type { EndpointSort } from "./query/sorts";
import { scaleParts } from "./scale/scale-parts";
import { IMAGES_WRITTEN_FROM } from "./scale/thresholds";
import type { Found } from "./tables/service-table";

export type { CatalogueSerialisers } from "./load/catalogue";
export type { EndpointFilters, ServiceFilters, ServiceStatusFilter } from "./query/filters";
export {
  ENDPOINT_FILTERS,
  endpointFilterNames,
  endpointFilters,
  paramsOf,
  SERVICE_FILTERS,
  serviceFilterNames,
  serviceFilters,
} from "./query/filters";
export type { QueryReading } from "./query/partial-query";
export {
  ENDPOINT_SORTS,
  type EndpointSort,
  endpointSortParams,
  relevanceNeedsQ,
  serviceSortParams,
} from "./query/sorts";

/** A page as the list sends it. */
export interface Listing {
  /** Serialised items of the page: each item's UTF-8 JSON, in one or more parts. */
  items: Array<readonly Buffer[]>;
  total: number;
  /** Within one catalogue version, equal fingerprints mean equal items (for ETags without hashing bodies). */
  fingerprint: string;
}

const VERIFIED = Buffer.from('"verified":true,');
const NOT_VERIFIED = Buffer.from('"verified":false,');

/** The items found, without those whose rows are gone, each made into its parts (a plain loop: this runs for every page). */
function present<T>(
  items: Array<T | undefined>,
  partsOf: (item: T, k: number) => readonly Buffer[],
): Array<readonly Buffer[]> {
  const kept: Array<readonly Buffer[]> = [];
  for (let k = 0; k < items.length; k += 1) {
    const item = items[k];
    if (item !== undefined) kept.push(partsOf(item, k));
  }
  return kept;
}

/** A page of a search: its serialised items, the catalogue version it comes from and how q was read. */
export interface SearchPage {
  /** The database snapshot the answer was computed on (equal snapshots: equal catalogue). */
  snapshot: string;
  listing: Listing;
  /** How q was read (corrected, partial); undefined without q. */
  reading: QueryReading | undefined;
}

/** A service search's order: the sort's own default direction unless `order` is given. */
export interface ServiceSortChoice {
  sort?: ServiceSort;
  order?: SortDirection;
}

/**
 * The catalogue search: the only way into the in-memory catalogue for HTTP routes, the CSV export
 * and any other caller (an MCP tool adapts it). It owns filtering, sorting and paging; q is read
 * as typed and, when its words match nothing, corrected or partly matched (see SearchQueries).
 */
export interface CatalogueSearch {
  findServices(filters: ServiceFilters, sort: ServiceSortChoice, paging: Paging): Promise<SearchPage>;
  findEndpoints(
    filters: EndpointFilters,
    sort: EndpointSort | undefined,
    paging: Paging,
  ): Promise<SearchPage>;
  /**
   * The services a search matches, in its order, from `offset` on (every match without a limit):
   * what the CSV export reads from the database.
   */
  servicesForExport(
    filters: ServiceFilters,
    sort: ServiceSortChoice,
    paging: { offset: number; limit?: number },
  ): Promise<ExportSelection>;
}

/** The services an export reads, as the database knows them, with what only the search holds. */
export interface ExportSelection {
  /** The entries' primary row ids. */
  ids: string[];
  /** Each entry's number of payable endpoints, in the order of `ids` (computed when the catalogue loads). */
  payableEndpoints: number[];
}

export interface CatalogueSearchOptions {
  pool: ReadPool;
  logger: Logger;
  serialisers: CatalogueSerialisers;
  /** See CatalogueKeeperOptions.refreshMs. */
  refreshMs: number;
  /** How many distinct q texts keep their parsed form (see SearchQueries). */
  rememberedQueries?: number;
  /** Called after each newer catalogue is in place, with how it came, its size and the time taken. */
  onLoaded?: (load: CatalogueLoad) => void;
  /** See CatalogueKeeperOptions.stopping. */
  stopping?: AbortSignal;
  /** Catalogue images (see scale/catalogue-images.ts), stored from `writeFrom` endpoints; omitted: none. */
  images?: { writeFrom: number };
}

/** The images option of a process of the product, from CATALOGUE_IMAGES. */
export function catalogueImages(enabled: boolean): CatalogueSearchOptions["images"] {
  return enabled ? { writeFrom: IMAGES_WRITTEN_FROM } : undefined;
}

/** The catalogue search over the in-memory catalogue, kept current from the database. */
export class InMemoryCatalogueSearch implements CatalogueSearch {
  private readonly catalogue: CatalogueKeeper;
  private readonly queries: SearchQueries;
  private readonly items: CatalogueItems;

  constructor({
    pool,
    logger,
    serialisers,
    refreshMs,
    rememberedQueries,
    onLoaded,
    stopping,
    images,
  }: CatalogueSearchOptions) {
    const scale = scaleParts({ pool, logger, stopping, images });
    this.catalogue = new CatalogueKeeper({ pool, logger, refreshMs, onLoaded, stopping, scale });
    this.queries = new SearchQueries(pool, rememberedQueries);
    this.items = new CatalogueItems(pool, serialisers);
  }

  /** Loads the catalogue now rather than on the first search. */
  async preload(): Promise<void> {
    await this.catalogue.current();
  }

  /** The catalogue changed (a writer said so): check and reload in the background. */
  refreshNow(): void {
    this.catalogue.refreshNow();
  }

  async findServices(filters: ServiceFilters, sort: ServiceSortChoice, paging: Paging): Promise<SearchPage> {
    const loaded = await this.catalogue.current();
    const { answer, reading } = await this.searchServices(loaded, filters, sort, paging);
    // Moved forward by an in-place refresh meanwhile, the snapshot still describes the page.
    const snapshot = loaded.snapshot;
    const items = await this.items.serviceItems(snapshot, loaded.services.ids(answer));
    const listing: Listing = {
      items: present(items, (item) => [item]),
      total: answer.total,
      fingerprint: answer.page.join(","),
    };
    return { snapshot, listing, reading };
  }

  async servicesForExport(
    filters: ServiceFilters,
    sort: ServiceSortChoice,
    paging: { offset: number; limit?: number },
  ): Promise<ExportSelection> {
    const loaded = await this.catalogue.current();
    const { answer } = await this.searchServices(loaded, filters, sort, paging);
    return { ids: loaded.services.ids(answer), payableEndpoints: loaded.services.payableEndpoints(answer) };
  }

  async findEndpoints(
    filters: EndpointFilters,
    sort: EndpointSort | undefined,
    paging: Paging,
  ): Promise<SearchPage> {
    const loaded = await this.catalogue.current();
    const now = Date.now();
    const { answer, reading } = await this.queries.search(filters.q, loaded.endpoints.text, (text) =>
      loaded.endpoints.list(filters, sort, paging, text, now),
    );
    const snapshot = loaded.snapshot;
    const ids = answer.page.map((i) => loaded.endpoints.id(i));
    const items = await this.items.endpointItems(snapshot, ids);
    const listing: Listing = {
      items: present(items, ({ head, tail }, k) => [
        head,
        answer.verified[k] ? VERIFIED : NOT_VERIFIED,
        tail,
      ]),
      total: answer.total,
      fingerprint: `${answer.page.join(",")}|${answer.verified.map((v) => (v ? "v" : "")).join(",")}`,
    };
    return { snapshot, listing, reading };
  }

  private searchServices(
    loaded: Catalogue,
    filters: ServiceFilters,
    sort: ServiceSortChoice,
    paging: { offset: number; limit?: number },
  ): Promise<SearchAnswer<Found>> {
    const order = serviceOrder(filters.q, sort.sort, sort.order);
    const window = { offset: paging.offset, limit: paging.limit ?? loaded.services.size };
    const now = Date.now();
    return this.queries.search(filters.q, loaded.services.text, (text) =>
      loaded.services.find(filters, order, window, text, now),
    );
  }
}
