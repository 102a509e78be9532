import type { Router } from "express";
import { listProbeSweeps, type ProbeSweepRecord } from "../../catalogue/probe-sweeps";
import type { ReadPool } from "../../db/read-pool";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { pagingQuery } from "../schemas/catalogue";
import { listJson } from "../serialisers";
import { parseInput } from "../validation";

function probeSweepJson(sweep: ProbeSweepRecord) {
  return {
    id: sweep.id,
    trigger: sweep.trigger,
    started_at: sweep.startedAt.toISOString(),
    finished_at: sweep.finishedAt?.toISOString() ?? null,
    endpoints: sweep.endpoints,
    probed: sweep.probed,
    outcomes: sweep.outcomes,
  };
}

/** GET /v1/probe-sweeps: the probe log, as /v1/crawls is the crawl log. */
export function probeSweepsRouter(pool: ReadPool): Router {
  const router = apiRouter();
  router
    .route("/v1/probe-sweeps")
    .get(async (req, res) => {
      const paging = parseInput(pagingQuery, req.query, "query");
      // Operators watch a sweep's probes land here: never serve it from a cache.
      res
        .set("Cache-Control", "no-cache")
        .json(listJson(await listProbeSweeps(pool, paging), probeSweepJson));
    })
    .all(methodNotAllowed);
  return router;
}
