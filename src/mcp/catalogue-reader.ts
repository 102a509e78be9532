import type { z } from "zod";
import type { Paging } from "../catalogue/paging";
import { getServiceDetail } from "../catalogue/service-details";
import { listCategories } from "../catalogue/taxonomy-queries";
import type { ReadPool } from "../db/read-pool";
import { emptyAnswerHint } from "../http/catalogue-listing";
import { serviceHistoryAnswer } from "../http/history-answer";
import type { endpointListQuery } from "../http/schemas/endpoints";
import { type historyQuery, isServiceId, type serviceListQuery } from "../http/schemas/services";
import { categoryJson, listJson, queryReadingJson, serviceDetailJson } from "../http/serialisers";
import {
  type CatalogueSearch,
  endpointFilters,
  type SearchPage,
  serviceFilters,
} from "../search/catalogue-search";

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

/** A search's list, with how q was read (present whenever q was given) and REST's empty-answer hint. */
export interface SearchList extends JsonList {
  query?: ReturnType<typeof queryReadingJson>;
  hint?: string;
}

/**
 * The search keeps items as serialised UTF-8 JSON for HTTP; a tool answer needs them as values.
 * The body is REST's (sendListing): the items, has_more, total and the reading of q.
 */
function searchListOf(
  { listing, reading }: SearchPage,
  paging: Paging,
  hint: string | undefined,
): SearchList {
  const items = listing.items.map((parts) => JSON.parse(Buffer.concat(parts).toString("utf8")) as JsonObject);
  const list: SearchList = {
    items,
    has_more: paging.offset + items.length < listing.total,
    total: listing.total,
  };
  if (reading !== undefined) list.query = queryReadingJson(reading);
  if (hint !== undefined) list.hint = hint;
  return list;
}

export class CatalogueReader {
  constructor(private readonly deps: CatalogueReaderDeps) {}

  async searchServices(query: z.output<typeof serviceListQuery>): Promise<SearchList> {
    const paging = { offset: query.offset, limit: query.limit };
    const filters = serviceFilters(query);
    const page = await this.deps.search.findServices(filters, query, paging);
    return searchListOf(page, paging, emptyAnswerHint(filters, page.listing.total));
  }

  async searchEndpoints(query: z.output<typeof endpointListQuery>): Promise<SearchList> {
    const paging = { offset: query.offset, limit: query.limit };
    const filters = endpointFilters(query);
    const page = await this.deps.search.findEndpoints(filters, query.sort, paging);
    return searchListOf(page, paging, emptyAnswerHint(filters, page.listing.total));
  }

  /** Null when no row has this id (any text is asked, as REST's path id: not a service id is not found). */
  async getService(id: string): Promise<JsonObject | null> {
    if (!isServiceId(id)) return null;
    const detail = await getServiceDetail(this.deps.pool, id);
    return detail === null ? null : serviceDetailJson(detail);
  }

  /** Null when no row has this id (as getService). */
  async getServiceHistory(id: string, query: z.output<typeof historyQuery>): Promise<JsonList | null> {
    if (!isServiceId(id)) return null;
    return serviceHistoryAnswer(this.deps.pool, id, query);
  }

  async listCategories(paging: Paging): Promise<JsonList> {
    return listJson(await listCategories(this.deps.pool, paging), categoryJson);
  }
}
