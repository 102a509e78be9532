import compression from "compression";
import type { Request, Response, Router } from "express";
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
import { type CsvExport, sendCsv } from "../csv";
import { cappedExportLimit } from "../export-meter";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { historyExportQuery, serviceExportQuery } from "../schemas/services";
import { parseInput } from "../validation";
import { notFound } from "./services";

/** What an export request sends: its query, columns, file name and row count. */
type ExportPlan = (req: Request, res?: Response) => Promise<Omit<CsvExport, "pool">>;

/** services.csv: the list's filters and sort without paging (the loaded catalogue chooses the services). */
function servicesExport(search: CatalogueSearch): ExportPlan {
  return async (req, res) => {
    const query = parseInput(serviceExportQuery, req.query, "query");
    const limit = res ? cappedExportLimit(res, query.limit) : query.limit;
    const { ids, payableEndpoints } = await search.servicesForExport(serviceFilters(query), query, {
      offset: query.offset,
      limit,
    });
    return {
      query: servicesSql(ids, payableEndpoints),
      columns: SERVICE_EXPORT_COLUMNS,
      filename: "services.csv",
      rows: ids.length,
    };
  };
}

/** history.csv: one service's or every service's figures over time (series=observed_daily: chain payments per day). */
function historyExport(pool: ReadPool): ExportPlan {
  return async (req, res) => {
    const query = parseInput(historyExportQuery, req.query, "query");
    if (query.service_id !== undefined && !(await serviceExists(pool, query.service_id))) {
      throw notFound(query.service_id);
    }
    const daily = query.series === "observed_daily";
    const count = daily ? countObservedDays : countHistoryExport;
    const limit = res ? cappedExportLimit(res, query.limit) : query.limit;
    const rows = req.method === "HEAD" ? 0 : await count(pool, query.service_id, query);
    return {
      query: (daily ? observedDaysExportQuery : historySql)(query.service_id, query, limit),
      columns: daily ? OBSERVED_DAYS_EXPORT_COLUMNS : HISTORY_EXPORT_COLUMNS,
      filename: "history.csv",
      rows: limit === undefined ? rows : Math.min(rows, limit),
    };
  };
}

function exportPlans(pool: ReadPool, search: CatalogueSearch): Record<string, ExportPlan> {
  return { "/v1/services.csv": servicesExport(search), "/v1/history.csv": historyExport(pool) };
}

/**
 * How many rows an export request asks for (its query's rows, within its `limit`), before it is
 * answered: what a paid export is priced by. A request no export answers asks for none; a
 * malformed one is refused as the export would refuse it (400, 404).
 */
export function exportRowCounter(pool: ReadPool, search: CatalogueSearch): (req: Request) => Promise<number> {
  const plans = exportPlans(pool, search);
  return async (req) => {
    const plan = Object.hasOwn(plans, req.path) ? plans[req.path] : undefined;
    return plan ? (await plan(req)).rows : 0;
  };
}

/**
 * CSV downloads for analysts: the list's filters and sort without paging (a database cursor
 * streams the rows), and the history. An export never sends more rows than it may (its `limit`,
 * and for a paid export the rows paid for).
 */
export function exportsRouter(pool: ReadPool, search: CatalogueSearch): Router {
  const router = apiRouter();
  // Streamed CSV: compressed on the fly for clients that ask (the JSON answers gzip themselves).
  const compressed = compression();
  for (const [path, plan] of Object.entries(exportPlans(pool, search))) {
    router
      .route(path)
      .get(compressed, async (req, res) => {
        await sendCsv(req, res, { pool, ...(await plan(req, res)) });
      })
      .all(methodNotAllowed);
  }
  return router;
}
