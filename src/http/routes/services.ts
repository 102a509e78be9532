import { Router } from "express";
import type { z } from "zod";
import { getServiceHistory } from "../../catalogue/history-queries";
import { getServiceDetail } from "../../catalogue/service-details";
import { type ServiceFilters, serviceOrder } from "../../catalogue/service-queries";
import type { ReadPool } from "../../db/read-pool";
import type { CatalogueIndexStore } from "../../search/catalogue-index-store";
import type { SearchQueries } from "../../search/search-queries";
import { sendListing } from "../catalogue-listing";
import { HttpError } from "../errors";
import { methodNotAllowed, sendCacheable } from "../responses";
import { noQuery } from "../schemas/common";
import {
  historyQuery,
  isServiceId,
  type serviceExportQuery,
  serviceIdParams,
  serviceListQuery,
} from "../schemas/services";
import { historyJson, listJson, serviceDetailJson } from "../serialisers";
import { parseInput } from "../validation";

type ServiceFilterQuery = z.output<typeof serviceExportQuery>;

/** Query parameters (snake_case) to catalogue filters; shared with services.csv. */
export function serviceFilters(query: ServiceFilterQuery): ServiceFilters {
  return {
    q: query.q,
    category: query.category,
    tags: query.tag,
    method: query.method,
    domain: query.domain,
    minUptime: query.min_uptime,
    maxResponseMs: query.max_response_ms,
    minVolume: query.min_volume,
    minTx: query.min_tx,
    minPayers: query.min_payers,
    updatedSince: query.updated_since,
    status: query.status,
    network: query.network,
    asset: query.asset,
    maxPrice: query.max_price,
    includeUnpriced: query.include_unpriced,
    payTo: query.pay_to,
    source: query.source,
    verified: query.verified,
  };
}

/**
 * The services a list or export query matches, from the catalogue index (typos corrected when
 * the words match nothing); every match from `offset` on when no limit is given.
 */
export async function findServices(
  catalogue: CatalogueIndexStore,
  searches: SearchQueries,
  query: ServiceFilterQuery,
  paging?: { offset: number; limit?: number },
) {
  const index = await catalogue.current();
  const filters = serviceFilters(query);
  const order = serviceOrder(query.q, query.sort, query.order);
  const window = { offset: paging?.offset ?? 0, limit: paging?.limit ?? index.services.size };
  const now = Date.now();
  const { answer: found, reading } = await searches.search(query.q, index.services.text, (text) =>
    index.services.find(filters, order, window, text, now),
  );
  return { index, found, reading };
}

export function notFound(id: string): HttpError {
  return new HttpError(404, `No service with id ${id}`);
}

export function servicesRouter(
  pool: ReadPool,
  catalogue: CatalogueIndexStore,
  searches: SearchQueries,
): Router {
  const router = Router();

  router
    .route("/v1/services")
    .get(async (req, res) => {
      const query = parseInput(serviceListQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const { index, found, reading } = await findServices(catalogue, searches, query, paging);
      sendListing(res, index.snapshot, index.services.listing(found), paging, reading);
    })
    .all(methodNotAllowed);

  router
    .route("/v1/services/:id")
    .get(async (req, res) => {
      const { id } = parseInput(serviceIdParams, req.params, "path");
      parseInput(noQuery, req.query, "query");
      const detail = isServiceId(id) ? await getServiceDetail(pool, id) : null;
      if (!detail) throw notFound(id);
      sendCacheable(res, serviceDetailJson(detail));
    })
    .all(methodNotAllowed);

  router
    .route("/v1/services/:id/history")
    .get(async (req, res) => {
      const { id } = parseInput(serviceIdParams, req.params, "path");
      const query = parseInput(historyQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const page = isServiceId(id) ? await getServiceHistory(pool, id, query, paging) : null;
      if (!page) throw notFound(id);
      sendCacheable(res, listJson(page, historyJson));
    })
    .all(methodNotAllowed);

  return router;
}
