import { Router } from "express";
import {
  HISTORY_EXPORT_COLUMNS,
  historyExportQuery as historySql,
  serviceExists,
} from "../../catalogue/history-queries";
import { SERVICE_EXPORT_COLUMNS, serviceExportQuery as servicesSql } from "../../catalogue/service-export";
import { serviceOrder } from "../../catalogue/service-queries";
import type { ReadPool } from "../../db/read-pool";
import { sendCsv } from "../csv";
import { methodNotAllowed } from "../responses";
import { historyExportQuery, serviceExportQuery } from "../schemas/services";
import { parseInput } from "../validation";
import { notFound, serviceFilters } from "./services";

/** CSV downloads for analysts: the list's filters and sort without paging, and the history. */
export function exportsRouter(pool: ReadPool): Router {
  const router = Router();

  router
    .route("/v1/services.csv")
    .get(async (req, res) => {
      const query = parseInput(serviceExportQuery, req.query, "query");
      const order = serviceOrder(query.q, query.sort, query.order);
      await sendCsv(req, res, {
        pool,
        query: await servicesSql(pool, serviceFilters(query), order),
        columns: SERVICE_EXPORT_COLUMNS,
        filename: "services.csv",
      });
    })
    .all(methodNotAllowed);

  router
    .route("/v1/history.csv")
    .get(async (req, res) => {
      const query = parseInput(historyExportQuery, req.query, "query");
      if (query.service_id !== undefined && !(await serviceExists(pool, query.service_id))) {
        throw notFound(query.service_id);
      }
      await sendCsv(req, res, {
        pool,
        query: historySql(query.service_id, query),
        columns: HISTORY_EXPORT_COLUMNS,
        filename: "history.csv",
      });
    })
    .all(methodNotAllowed);

  return router;
}
