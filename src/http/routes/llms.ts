import type { Router } from "express";
import { renderLlmsTxt } from "../openapi/llms-txt";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import { parseInput } from "../validation";

/** GET /llms.txt and /llms-full.txt: the API and MCP tools digested for language models. */
export function llmsRouter(): Router {
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
        text ??= renderLlmsTxt(full);
        res.set("Cache-Control", "public, max-age=60").type("text/markdown; charset=utf-8").send(text);
      })
      .all(methodNotAllowed);
  }
  return router;
}
