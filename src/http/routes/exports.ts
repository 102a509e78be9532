import compression from "compression";
import type { Router } from "express";
import {
  countHistoryExport,
  HISTORY_EXPORT_COLUMNS,
  historyExportQuery as historySql,
  serviceExists,
} from "../../catalogue/history-queries";
import {
  countObservedDays,
  OBSERVED_DAYS_EXPORT_COLUMNS,
  observedDaysExportQuery,
} from "../../catalogue/observed-history";
import { SERVICE_EXPORT_COLUMNS, serviceExportQuery as servicesSql } from "../../catalogue/service-export";
import type { ReadPool } from "../../db/read-pool";
import { type CatalogueSearch, serviceFilters } from "../../search/catalogue-search";
import { sendCsv } from "../csv";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { historyExportQuery, serviceExportQuery } from "../schemas/services";
import { parseInput } from "../validation";
import { notFound } from "./services";

/**
 * CSV downloads for analysts: the list's filters and sort without paging (the loaded catalogue
 * chooses the services, a database cursor streams their rows), and the history.
 */
export function exportsRouter(pool: ReadPool, search: CatalogueSearch): Router {
  const router = apiRouter();
  // Streamed CSV: compressed on the fly for clients that ask (the JSON answers gzip themselves).
  const compressed = compression();

  router
    .route("/v1/services.csv")
    .get(compressed, async (req, res) => {
      const query = parseInput(serviceExportQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const { ids, payableEndpoints } = await search.servicesForExport(serviceFilters(query), query, paging);
      await sendCsv(req, res, {
        pool,
        query: servicesSql(ids, payableEndpoints),
        columns: SERVICE_EXPORT_COLUMNS,
        filename: "services.csv",
        rows: ids.length,
      });
    })
    .all(methodNotAllowed);

  router
    .route("/v1/history.csv")
    .get(compressed, async (req, res) => {
      const query = parseInput(historyExportQuery, req.query, "query");
      if (query.service_id !== undefined && !(await serviceExists(pool, query.service_id))) {
        throw notFound(query.service_id);
      }
      const daily = query.series === "observed_daily";
      const count = daily ? countObservedDays : countHistoryExport;
      await sendCsv(req, res, {
        pool,
        query: (daily ? observedDaysExportQuery : historySql)(query.service_id, query),
        columns: daily ? OBSERVED_DAYS_EXPORT_COLUMNS : HISTORY_EXPORT_COLUMNS,
        filename: "history.csv",
        rows: req.method === "HEAD" ? 0 : await count(pool, query.service_id, query),
      });
    })
    .all(methodNotAllowed);

  return router;
}
