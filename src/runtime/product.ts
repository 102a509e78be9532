import { Accounts, accountSettingsFromConfig } from "../accounts/accounts";
import { API_KEYS_CHANGED_CHANNEL } from "../accounts/key-cache";
import { startConfiguredActivity } from "../activity/activity-runner";
import { answerKeySettingsFromConfig, loadAnswerKeys } from "../answer-signing/answer-key-loading";
import { startRenewals } from "../billing/renewals";
import { startSettlement } from "../billing/settlement-runner";
import { CATALOGUE_CHANGED_CHANNEL } from "../catalogue/catalogue-changes";
import type { Config } from "../config/config";
import { crawlSettingsFromConfig } from "../crawl-run/settings";
import { listenFor } from "../db/notifications";
import { createPrismaClient, type Database } from "../db/prisma-client";
import { createReadPool } from "../db/read-pool";
import { createApp } from "../http/app";
import { ResponseCache } from "../http/response-cache";
import { listen } from "../http/server";
import type { Logger } from "../logging/logger";
import { exposeMetrics, metricsSettingsFromConfig } from "../metrics/serve-metrics";
import { ownershipSettingsFromConfig } from "../ownership/ownership";
import { probeSettingsFromConfig } from "../probe/settings";
import { startProbing } from "../probe/start-probing";
import { registrarFromConfig } from "../registrations/registrar";
import { startRegisteredReindex } from "../registrations/reindex-schedule";
import { catalogueImages } from "../search/catalogue-search";
import { configuredSources } from "../sources/configured-sources";
import { scheduleSourceCrawls } from "../sources/schedule-sources";
import { preflightWith } from "../trust/preflight";
import { startWebhookDelivery } from "../webhooks/delivery-worker";
import { openWebhookSecrets } from "../webhooks/secret-sealing";
import { webhookSettingsFromConfig } from "../webhooks/settings";
import { salesFacilitator } from "../x402-sales/facilitators";
import { operatorOwner, salesSettingsFromConfig } from "../x402-sales/settings";
import { X402Sales } from "../x402-sales/x402-sales";
import { openDatabaseServer } from "./database";
import { DATABASE_LOST, type Shutdown } from "./shutdown";

export interface Product {
  db: Database;
  port: number;
  databaseUrl: string;
}

/**
 * `npm start`: database (embedded or external) with migrations applied, then the HTTP API.
 * Every resource is registered with `shutdown` as soon as it exists, so a failure half-way
 * still stops what was started (above all the embedded Postgres).
 */
export async function startProduct(config: Config, logger: Logger, shutdown: Shutdown): Promise<Product> {
  const started = Date.now();
  const server = await openDatabaseServer(config, logger);
  shutdown.register("database server", () => server.stop());
  server.onLost(() => shutdown.fail(DATABASE_LOST));
  // One pool for the process: the API's SQL, the CSV cursors and Prisma (crawl writes, health)
  // share its connections, sized for both (each had 10 of its own before).
  const pool = createReadPool(server.url, 20, logger);
  shutdown.register("database pool", () => pool.end());
  const db = createPrismaClient(pool);
  shutdown.register("database client", () => db.$disconnect());
  const catalogueChanges = listenFor(server.url, CATALOGUE_CHANGED_CHANNEL, logger);
  shutdown.register("catalogue change listener", () => catalogueChanges.close());
  const keyChanges = listenFor(server.url, API_KEYS_CHANGED_CHANNEL, logger);
  shutdown.register("API key change listener", () => keyChanges.close());
  const accounts = new Accounts(pool, logger, accountSettingsFromConfig(config), keyChanges);
  shutdown.register("usage counts", () => accounts.close());
  const exposed = await exposeMetrics(metricsSettingsFromConfig(config), { api: pool }, true, logger);
  shutdown.register("metrics listener", () => exposed.close());
  const webhookSettings = webhookSettingsFromConfig(config);
  const secretKeys = await openWebhookSecrets(config, db, logger);
  const webhooks = await startWebhookDelivery({
    db,
    databaseUrl: server.url,
    settings: webhookSettings,
    keys: secretKeys,
    logger,
  });
  shutdown.register("webhook delivery", () => webhooks.stop());
  const answerKeys = await loadAnswerKeys(answerKeySettingsFromConfig(config));
  const salesSettings = salesSettingsFromConfig(config);
  const sales =
    salesSettings &&
    new X402Sales({
      settings: salesSettings,
      facilitator: salesFacilitator(salesSettings),
      logger,
      db,
      pool,
      operator: await operatorOwner(db, salesSettings),
    });
  if (sales) {
    const retries = sales.settlements.start();
    shutdown.register("x402 settlement retries", () => retries.stop());
  }
  const registrar = registrarFromConfig(config, { db, pool, databaseUrl: server.url, logger });
  const http = await listen(
    createApp({
      db,
      pool,
      logger,
      responseCache: new ResponseCache(config.API_CACHE_TTL_SECONDS * 1000, config.API_CACHE_MAX_ENTRIES),
      indexRefreshMs: config.API_INDEX_REFRESH_SECONDS * 1000,
      preloadIndex: true,
      catalogueImages: catalogueImages(config.CATALOGUE_IMAGES),
      stopping: shutdown.signal,
      catalogueChanges,
      accounts,
      trustProxy: config.TRUST_PROXY,
      settlementChains: config.SETTLEMENT_CHAINS,
      subscriptionGraceMs: config.SUBSCRIPTION_GRACE_HOURS * 3_600_000,
      webhooks: { allowedNetworks: webhookSettings.allowedNetworks, secretKeys, notify: webhooks.notify },
      metrics: config.METRICS_ENABLED ? { serve: exposed.onApiPort } : undefined,
      preflight: preflightWith(db, probeSettingsFromConfig(config)),
      ownership: ownershipSettingsFromConfig(config),
      answerKeys,
      sales,
      registrar,
    }),
    config.PORT,
    config.HOST,
    {
      headersMs: config.HTTP_HEADERS_TIMEOUT,
      requestMs: config.HTTP_REQUEST_TIMEOUT,
    },
  );
  shutdown.register("http server", () => http.close());
  const crawls = scheduleSourceCrawls(
    { db, databaseUrl: server.url, logger, settings: crawlSettingsFromConfig(config) },
    configuredSources(config),
    config.CRAWL_SCHEDULE,
    logger,
  );
  shutdown.register("crawl schedule", () => crawls.stop());
  const reindexes = startRegisteredReindex(registrar.deps, registrar.settings.reindexEveryMs, logger);
  shutdown.register("registered origins' re-index", () => reindexes.stop());
  const probing = await startProbing({
    db,
    databaseUrl: server.url,
    settings: probeSettingsFromConfig(config),
    logger,
    runWorker: true,
  });
  shutdown.register("probing", () => probing.stop());
  const settlement = startSettlement({
    databaseUrl: server.url,
    db,
    chains: config.SETTLEMENT_CHAINS,
    logger,
    pollMs: config.SETTLEMENT_POLL_SECONDS * 1000,
  });
  shutdown.register("settlement watchers", () => settlement.stop());
  const activity = startConfiguredActivity(config, { databaseUrl: server.url, db, logger });
  shutdown.register("chain activity readers", () => activity.stop());
  const renewals = startRenewals({
    db,
    settings: {
      chains: new Map(config.SETTLEMENT_CHAINS.map((chain) => [chain.chain, chain])),
      graceMs: config.SUBSCRIPTION_GRACE_HOURS * 3_600_000,
    },
    logger,
    intervalMs: config.RENEWAL_POLL_SECONDS * 1000,
  });
  shutdown.register("subscription renewals", () => renewals.stop());
  logger.info(
    { port: http.port, host: config.HOST, embeddedDatabase: server.embedded, ms: Date.now() - started },
    `x402 catalogue listening on http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${http.port}`,
  );
  return { db, port: http.port, databaseUrl: server.url };
}
