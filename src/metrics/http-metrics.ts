import type { RequestHandler, Router } from "express";
import { routePolicy } from "../accounts/route-policy";
import { apiRouter } from "../http/router";
import { statusLabel } from "./labels";
import type { ProductMetrics } from "./metrics";

/**
 * Counts every request and its duration under its route policy's group (never the raw path,
 * which carries ids) and its answer's status, once the answer ends or the client leaves.
 */
export function countRequests(metrics: ProductMetrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const { group } = routePolicy(req.path, req.method);
    res.once("close", () =>
      metrics.httpRequestFinished(
        group,
        statusLabel(res.statusCode, res.writableFinished),
        performance.now() - started,
      ),
    );
    next();
  };
}

/** Where Prometheus scrapes (deploy/ names it too). */
export const METRICS_PATH = "/metrics";

/** GET /metrics: the exposition in Prometheus's text format, never cached. */
export function metricsRouter(metrics: ProductMetrics): Router {
  const router = apiRouter();
  router.get(METRICS_PATH, async (_req, res) => {
    const { contentType, text } = await metrics.exposition();
    res.set("Cache-Control", "no-store").type(contentType).send(text);
  });
  return router;
}
