import compression from "compression";
import type { Router } from "express";
import { renderDocsPage } from "../openapi/docs-page";
import { openApiDocument } from "../openapi/document";
import { methodNotAllowed, sendCacheable } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import { parseInput } from "../validation";

/** GET /openapi.json (for tools) and GET /docs (for people). */
export function docsRouter(): Router {
  const router = apiRouter();
  let page: string | undefined;
  router
    .route("/openapi.json")
    .get((req, res) => {
      parseInput(noQuery, req.query, "query");
      sendCacheable(res, openApiDocument());
    })
    .all(methodNotAllowed);
  router
    .route("/docs")
    .get(compression(), (req, res) => {
      parseInput(noQuery, req.query, "query");
      page ??= renderDocsPage(openApiDocument());
      res.set("Cache-Control", "public, max-age=60").type("html").send(page);
    })
    .all(methodNotAllowed);
  return router;
}
