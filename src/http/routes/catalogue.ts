import type { Router } from "express";
import { listCrawlRuns } from "../../catalogue/crawl-run-queries";
import { listCategories, listTags } from "../../catalogue/taxonomy-queries";
import type { ReadPool } from "../../db/read-pool";
import { methodNotAllowed, sendCacheable } from "../responses";
import { apiRouter } from "../router";
import { pagingQuery } from "../schemas/catalogue";
import { categoryJson, crawlRunJson, listJson, tagJson } from "../serialisers";
import { parseInput } from "../validation";

/** Categories and tags with their counts, and the crawl log. */
export function catalogueRouter(pool: ReadPool): Router {
  const router = apiRouter();

  router
    .route("/v1/categories")
    .get(async (req, res) => {
      const paging = parseInput(pagingQuery, req.query, "query");
      sendCacheable(res, listJson(await listCategories(pool, paging), categoryJson));
    })
    .all(methodNotAllowed);

  router
    .route("/v1/tags")
    .get(async (req, res) => {
      const paging = parseInput(pagingQuery, req.query, "query");
      sendCacheable(res, listJson(await listTags(pool, paging), tagJson));
    })
    .all(methodNotAllowed);

  router
    .route("/v1/crawls")
    .get(async (req, res) => {
      const paging = parseInput(pagingQuery, req.query, "query");
      // Operators watch a running crawl here: never serve it from a cache.
      res.set("Cache-Control", "no-cache").json(listJson(await listCrawlRuns(pool, paging), crawlRunJson));
    })
    .all(methodNotAllowed);

  return router;
}
