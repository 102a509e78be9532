import type { Router } from "express";
import { getServiceDaily } from "../../catalogue/daily-queries";
import { getServiceDetail } from "../../catalogue/service-details";
import type { ReadPool } from "../../db/read-pool";
import { type CatalogueSearch, serviceFilters } from "../../search/catalogue-search";
import { emptyAnswerHint, sendListing } from "../catalogue-listing";
import { HttpError } from "../errors";
import { serviceHistoryAnswer } from "../history-answer";
import { methodNotAllowed, sendCacheable } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import { dailyQuery } from "../schemas/daily";
import { historyQuery, isServiceId, serviceIdParams, serviceListQuery } from "../schemas/services";
import { dailyJson, serviceDetailJson } from "../serialisers";
import { parseInput, parseQuery } from "../validation";

export function notFound(id: string): HttpError {
  return new HttpError(404, `No service with id ${id}`);
}

export function servicesRouter(pool: ReadPool, search: CatalogueSearch): Router {
  const router = apiRouter();

  router
    .route("/v1/services")
    .get(async (req, res) => {
      const query = parseQuery(serviceListQuery, req);
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
      const answer = isServiceId(id) ? await serviceHistoryAnswer(pool, id, query) : null;
      if (!answer) throw notFound(id);
      sendCacheable(res, answer);
    })
    .all(methodNotAllowed);

  router
    .route("/v1/services/:id/history/daily")
    .get(async (req, res) => {
      const { id } = parseInput(serviceIdParams, req.params, "path");
      const { days } = parseInput(dailyQuery, req.query, "query");
      const daily = isServiceId(id) ? await getServiceDaily(pool, id, days) : null;
      if (!daily) throw notFound(id);
      sendCacheable(res, { items: daily.map(dailyJson) });
    })
    .all(methodNotAllowed);

  return router;
}
