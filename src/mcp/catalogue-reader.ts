import type { z } from "zod";
import { getServiceHistory } from "../catalogue/history-queries";
import type { Paging } from "../catalogue/paging";
import { getServiceDetail } from "../catalogue/service-details";
import { listCategories } from "../catalogue/taxonomy-queries";
import type { ReadPool } from "../db/read-pool";
import { endpointFilters } from "../http/routes/endpoints";
import { serviceFilters } from "../http/routes/services";
import type { endpointListQuery } from "../http/schemas/endpoints";
import type { historyQuery, serviceListQuery } from "../http/schemas/services";
import { categoryJson, historyJson, listJson, serviceDetailJson } from "../http/serialisers";
import type { CatalogueSearch, Listing } from "../search/catalogue-search";

/**
 * The one place MCP tools read the catalogue: the same search (CatalogueSearch), query functions
 * and serialisers as the REST routes, answering the same JSON as REST.
 */

export type JsonObject = Record<string, unknown>;

export interface JsonList {
  items: JsonObject[];
  has_more: boolean;
  total: number;
}

export interface CatalogueReaderDeps {
  pool: ReadPool;
  search: CatalogueSearch;
}

/** The search keeps items as serialised UTF-8 JSON for HTTP; a tool answer needs them as values. */
function listOf(listing: Listing, paging: Paging): JsonList {
  const items = listing.items.map((parts) => JSON.parse(Buffer.concat(parts).toString("utf8")) as JsonObject);
  return { items, has_more: paging.offset + items.length < listing.total, total: listing.total };
}

export class CatalogueReader {
  constructor(private readonly deps: CatalogueReaderDeps) {}

  async searchServices(query: z.output<typeof serviceListQuery>): Promise<JsonList> {
    const paging = { offset: query.offset, limit: query.limit };
    const { listing } = await this.deps.search.findServices(serviceFilters(query), query, paging);
    return listOf(listing, paging);
  }

  async searchEndpoints(query: z.output<typeof endpointListQuery>): Promise<JsonList> {
    const paging = { offset: query.offset, limit: query.limit };
    const { listing } = await this.deps.search.findEndpoints(endpointFilters(query), query.sort, paging);
    return listOf(listing, paging);
  }

  /** Null when no row has this id. */
  async getService(id: string): Promise<JsonObject | null> {
    const detail = await getServiceDetail(this.deps.pool, id);
    return detail === null ? null : serviceDetailJson(detail);
  }

  /** Null when no row has this id. */
  async getServiceHistory(id: string, query: z.output<typeof historyQuery>): Promise<JsonList | null> {
    const page = await getServiceHistory(this.deps.pool, id, query, {
      offset: query.offset,
      limit: query.limit,
    });
    return page === null ? null : listJson(page, historyJson);
  }

  async listCategories(paging: Paging): Promise<JsonList> {
    return listJson(await listCategories(this.deps.pool, paging), categoryJson);
  }
}
