import { Router } from "express";
import { listEndpoints } from "../../catalogue/endpoint-queries";
import type { ReadPool } from "../../db/read-pool";
import { methodNotAllowed, sendCacheable } from "../responses";
import { endpointListQuery } from "../schemas/endpoints";
import { endpointHitJson, listJson } from "../serialisers";
import { parseInput } from "../validation";

/** Endpoint-level search: "find an endpoint that does X". */
export function endpointsRouter(pool: ReadPool): Router {
  const router = Router();
  router
    .route("/v1/endpoints")
    .get(async (req, res) => {
      const query = parseInput(endpointListQuery, req.query, "query");
      const page = await listEndpoints(
        pool,
        { q: query.q, method: query.method, category: query.category },
        { offset: query.offset, limit: query.limit },
      );
      sendCacheable(res, listJson(page, endpointHitJson));
    })
    .all(methodNotAllowed);
  return router;
}
