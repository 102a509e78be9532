import type { Router } from "express";
import { markPaidOperations, payingSection } from "../../x402-sales/sales-docs";
import type { SalesSettings } from "../../x402-sales/settings";
import { openApiDocument } from "../openapi/document";
import { renderLlmsTxt } from "../openapi/llms-txt";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import { parseInput } from "../validation";

/**
 * GET /llms.txt and /llms-full.txt: the API and MCP tools digested for language models, with how
 * to pay when the API is sold over x402.
 */
export function llmsRouter(sales?: SalesSettings): Router {
  const router = apiRouter();
  for (const [path, full] of [
    ["/llms.txt", false],
    ["/llms-full.txt", true],
  ] as const) {
    let text: string | undefined;
    router
      .route(path)
      .get((req, res) => {
        parseInput(noQuery, req.query, "query");
        text ??= sales
          ? renderLlmsTxt(full, markPaidOperations(openApiDocument(), sales), [payingSection(sales)])
          : renderLlmsTxt(full);
        res.set("Cache-Control", "public, max-age=60").type("text/markdown; charset=utf-8").send(text);
      })
      .all(methodNotAllowed);
  }
  return router;
}
