import type { Router } from "express";
import { methodNotAllowed, sendCacheable } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import { ROOT_LINKS } from "../schemas/operations";
import { parseInput } from "../validation";

/** GET /: links to the docs, the OpenAPI document and the main lists, rather than a 404. */
export function rootRouter(): Router {
  const router = apiRouter();
  router
    .route("/")
    .get((req, res) => {
      parseInput(noQuery, req.query, "query");
      sendCacheable(res, {
        name: "x402 catalogue",
        description:
          "The catalogue of pay-per-call (x402) API services: search them, read their endpoints, prices and probes.",
        links: ROOT_LINKS,
      });
    })
    .all(methodNotAllowed);
  return router;
}
