import compression from "compression";
import type { Router } from "express";
import { markPaidOperations } from "../../x402-sales/sales-docs";
import type { SalesSettings } from "../../x402-sales/settings";
import { renderDocsPage } from "../openapi/docs-page";
import { openApiDocument } from "../openapi/document";
import { methodNotAllowed, sendCacheable } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import { parseInput } from "../validation";

/** GET /openapi.json (for tools) and GET /docs (for people); sold operations marked (x-x402). */
export function docsRouter(sales?: SalesSettings): Router {
  const router = apiRouter();
  let page: string | undefined;
  let marked: ReturnType<typeof openApiDocument> | undefined;
  const document = () => {
    marked ??= sales ? markPaidOperations(openApiDocument(), sales) : openApiDocument();
    return marked;
  };
  router
    .route("/openapi.json")
    .get((req, res) => {
      parseInput(noQuery, req.query, "query");
      sendCacheable(res, document());
    })
    .all(methodNotAllowed);
  router
    .route("/docs")
    .get(compression(), (req, res) => {
      parseInput(noQuery, req.query, "query");
      page ??= renderDocsPage(document());
      res.set("Cache-Control", "public, max-age=60").type("html").send(page);
    })
    .all(methodNotAllowed);
  return router;
}
