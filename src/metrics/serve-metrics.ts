import express from "express";
import type { Config } from "../config/config";
import { notFoundHandler } from "../http/errors";
import { listen } from "../http/server";
import type { Logger } from "../logging/logger";
import { metricsRouter } from "./http-metrics";
import { metrics, type PoolCounts } from "./metrics";

/** METRICS_ENABLED, METRICS_PORT and the interface to listen on (HOST). */
export interface MetricsSettings {
  enabled: boolean;
  port: number | undefined;
  host: string;
}

export function metricsSettingsFromConfig(config: Config): MetricsSettings {
  return { enabled: config.METRICS_ENABLED, port: config.METRICS_PORT, host: config.HOST };
}

/** Where this process serves its metrics. */
export interface MetricsExposure {
  /** The API's own port serves GET /metrics (enabled, no METRICS_PORT, a process with an API). */
  onApiPort: boolean;
  /** The port of the metrics-only listener (METRICS_PORT), when there is one. */
  port: number | null;
  close(): Promise<void>;
}

const NONE: MetricsExposure = { onApiPort: false, port: null, close: async () => {} };

/**
 * Starts this process's metrics: Node's own (event-loop lag and the rest) and its database pools,
 * served on a listener of their own when METRICS_PORT is set (so the metrics need not be
 * public), else on the API's port; a process without an API (the worker) then serves none.
 */
export async function exposeMetrics(
  settings: MetricsSettings,
  pools: Record<string, PoolCounts>,
  hasApi: boolean,
  logger: Logger,
): Promise<MetricsExposure> {
  if (!settings.enabled) return NONE;
  metrics.watchProcess();
  for (const [name, pool] of Object.entries(pools)) metrics.watchPool(name, pool);
  if (settings.port === undefined) {
    if (!hasApi) logger.info("METRICS_PORT is unset: this process serves no metrics");
    return { ...NONE, onApiPort: hasApi };
  }
  const app = express();
  app.disable("x-powered-by");
  app.use(metricsRouter(metrics));
  app.use(notFoundHandler);
  const server = await listen(app, settings.port, settings.host);
  logger.info({ port: server.port, host: settings.host }, "metrics served at /metrics on their own port");
  return { onApiPort: false, port: server.port, close: () => server.close() };
}
