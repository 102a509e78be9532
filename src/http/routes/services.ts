import type { Router } from "express";
import type { z } from "zod";
import { getServiceHistory } from "../../catalogue/history-queries";
import { getServiceDetail } from "../../catalogue/service-details";
import type { ReadPool } from "../../db/read-pool";
import type { CatalogueSearch, ServiceFilters } from "../../search/catalogue-search";
import { emptyAnswerHint, sendListing } from "../catalogue-listing";
import { HttpError } from "../errors";
import { methodNotAllowed, sendCacheable } from "../responses";
import { apiRouter } from "../router";
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
    drift: query.drift,
  };
}

export function notFound(id: string): HttpError {
  return new HttpError(404, `No service with id ${id}`);
}

export function servicesRouter(pool: ReadPool, search: CatalogueSearch): Router {
  const router = apiRouter();

  router
    .route("/v1/services")
    .get(async (req, res) => {
      const query = parseInput(serviceListQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const filters = serviceFilters(query);
      const { snapshot, listing, reading } = await search.findServices(filters, query, paging);
      sendListing(res, snapshot, listing, paging, reading, emptyAnswerHint(filters, listing.total));
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
