import cors from "cors";
import express, { type Express } from "express";
import { Accounts } from "../accounts/accounts";
import { AnswerKeyRing } from "../answer-signing/answer-keys";
import { answerKeysRouter } from "../answer-signing/keys-route";
import { signedAnswers } from "../answer-signing/signed-answers";
import type { SettlementChain } from "../billing/settlement-chains";
import type { Listener } from "../db/notifications";
import type { Database } from "../db/prisma-client";
import type { ReadPool } from "../db/read-pool";
import type { Logger } from "../logging/logger";
import { CatalogueReader } from "../mcp/catalogue-reader";
import { mcpRouter } from "../mcp/http-route";
import { countRequests, metricsRouter } from "../metrics/http-metrics";
import { metrics as productMetrics } from "../metrics/metrics";
import { type OwnershipSettings, ownershipWith } from "../ownership/ownership";
import { pagesRouter } from "../pages/routes";
import type { Registrar } from "../registrations/registrar";
import { registrationsRouter } from "../registrations/registrations-route";
import { InMemoryCatalogueSearch } from "../search/catalogue-search";
import { type Preflight, preflightWith } from "../trust/preflight";
import { SecretKeyRing } from "../webhooks/secret-keys";
import { salesManifestRouter } from "../x402-sales/manifest-route";
import { x402PaymentsRouter } from "../x402-sales/payments-route";
import type { X402Sales } from "../x402-sales/x402-sales";
import { catalogueSerialisers } from "./catalogue-listing";
import { errorHandler, notFoundHandler } from "./errors";
import { CatalogueReadiness, healthRouter } from "./health";
import { makeResponsesHoldable } from "./held-answer";
import { requestGuard } from "./request-guard";
import type { ResponseCache } from "./response-cache";
import { serveCachedResponses } from "./responses";
import { exceptUnder, useCanonicalRouting } from "./router";
import { accountsRouter } from "./routes/accounts";
import { catalogueRouter } from "./routes/catalogue";
import { docsRouter } from "./routes/docs";
import { endpointsRouter } from "./routes/endpoints";
import { eventsRouter } from "./routes/events";
import { exportRowCounter, exportsRouter } from "./routes/exports";
import { llmsRouter } from "./routes/llms";
import { ownershipRouter } from "./routes/ownership";
import { paymentOrdersRouter } from "./routes/payment-orders";
import { preflightRouter } from "./routes/preflight";
import { probeSweepsRouter } from "./routes/probe-sweeps";
import { rootRouter } from "./routes/root";
import { servicesRouter } from "./routes/services";
import { subscriptionsRouter } from "./routes/subscriptions";
import { type WebhookRouteDeps, webhooksRouter } from "./routes/webhooks";

export interface AppDependencies {
  db: Database;
  /** Plain pg pool for the read API's SQL and the CSV cursors (see src/db/read-pool.ts). */
  pool: ReadPool;
  logger: Logger;
  /** Short-lived cache of answers (API_CACHE_TTL_SECONDS); none when omitted (tests). */
  responseCache?: ResponseCache;
  /**
   * How often the in-memory catalogue checks for a newer catalogue (API_INDEX_REFRESH_SECONDS,
   * in ms); 0, the default, checks before every request, so tests read their own writes.
   */
  indexRefreshMs?: number;
  /** How many distinct q texts keep their parsed form (see SearchQueries); the benchmark sets 0. */
  rememberedQueries?: number;
  /**
   * Load the in-memory catalogue now, not on the first request (which would wait seconds for it on
   * a large catalogue): the product does; tests and the benchmark load on demand.
   */
  preloadIndex?: boolean;
  /** Fires when the process shuts down: a catalogue load under way stops (it can take seconds). */
  stopping?: AbortSignal;
  /**
   * Catalogue images (CATALOGUE_IMAGES): start from the newest, store one after loads of catalogues
   * of at least `writeFrom` endpoints (see src/search/catalogue-image.ts). Omitted: none (tests).
   */
  catalogueImages?: { writeFrom: number };
  /**
   * Writers' announcements that the catalogue changed (LISTEN catalogue_changed): the search checks
   * at once instead of at its next periodic check, which stays the fallback.
   */
  catalogueChanges?: Pick<Listener, "subscribe">;
  /**
   * Keys, shared rate limits and usage (src/accounts); the caller closes it (last usage
   * written). Omitted: one with the default limits, never closed (tests that do not care).
   */
  accounts?: Accounts;
  /** Express's "trust proxy" (TRUST_PROXY): who may tell the client address. Default: nobody. */
  trustProxy?: false | number | string[];
  /** Chains payment orders may name (SETTLEMENT_CHAINS); none: orders cannot be created. */
  settlementChains?: readonly SettlementChain[];
  /** How long subscription invoices may stay unpaid (SUBSCRIPTION_GRACE_HOURS, in ms); default 72 h. */
  subscriptionGraceMs?: number;
  /**
   * Webhook endpoints' URL guard, secret key, clock and worker wake-up (src/webhooks). Default:
   * public addresses only, and a key of this process alone (secrets it seals open nowhere else).
   */
  webhooks?: Omit<WebhookRouteDeps, "db" | "logger">;
  /**
   * Metrics (METRICS_ENABLED, src/metrics): requests and catalogue loads are counted, and GET
   * /metrics is served here too when `serve` (no METRICS_PORT). Omitted: neither (tests that do not care).
   */
  metrics?: { serve: boolean };
  /** Probes on demand (POST /v1/preflight, MCP preflight_endpoint); default: the probe defaults, public addresses only. */
  preflight?: Preflight;
  /** The keys that sign the data routes' answers (ANSWER_SIGNING_KEY). Default: a key of this process alone. */
  answerKeys?: AnswerKeyRing;
  /** Selling the API over x402 (X402_PAY_TO); none: past the anonymous allowance is 429. */
  sales?: X402Sales;
  /** Registrations and re-indexes on demand (src/registrations); none: those routes answer 503. */
  registrar?: Registrar;
  /**
   * Proving ownership of origins (src/ownership): challenges' lifetime, and the token file's fetch
   * (the probes' limits and allowed networks). Default: OWNERSHIP_CHALLENGE_TTL's default, public addresses only.
   */
  ownership?: OwnershipSettings;
}

/** The HTTP API as a function of its dependencies, so tests start the real app in-process. */
export function createApp({
  db,
  pool,
  logger,
  responseCache,
  indexRefreshMs = 0,
  rememberedQueries,
  preloadIndex = false,
  stopping,
  catalogueImages,
  catalogueChanges,
  accounts = new Accounts(pool, logger),
  trustProxy = false,
  settlementChains = [],
  subscriptionGraceMs = 72 * 3_600_000,
  webhooks = { allowedNetworks: [], secretKeys: SecretKeyRing.ephemeral() },
  metrics,
  preflight = preflightWith(db),
  answerKeys = AnswerKeyRing.ephemeral(),
  sales,
  registrar,
  ownership,
}: AppDependencies): Express {
  const readiness = new CatalogueReadiness();
  const search = new InMemoryCatalogueSearch({
    pool,
    logger,
    serialisers: catalogueSerialisers,
    refreshMs: indexRefreshMs,
    rememberedQueries,
    stopping,
    images: catalogueImages,
    onLoaded: (load) => {
      responseCache?.clear();
      readiness.loaded();
      if (metrics) productMetrics.catalogueLoaded(load);
    },
  });
  catalogueChanges?.subscribe(() => search.refreshNow());
  if (preloadIndex) {
    search
      .preload()
      .catch((error: unknown) =>
        logger.error({ err: error }, "loading the catalogue index failed; the first request tries again"),
      );
  }
  const app = express();
  // Signed answers are held from their first write: its responses carry the traps that start it.
  makeResponsesHoldable(app);
  app.disable("x-powered-by");
  useCanonicalRouting(app);
  if (metrics) app.use(countRequests(productMetrics));
  // Node's own parser: a repeated parameter is an array, nothing else is structured (`tag[]=x`
  // is an unknown parameter named "tag[]"), at a third of qs's cost per request.
  app.set("query parser", "simple");
  app.set("trust proxy", trustProxy);
  // No compression middleware here: JSON answers negotiate gzip themselves (responses.ts, once
  // per cached answer); the CSV exports and the docs page compress on the fly (their routes).
  // Read-only and public: any origin may GET; preflight OPTIONS requests are answered here (204).
  app.use(
    cors({
      methods: ["GET", "HEAD"],
      maxAge: 86_400,
      exposedHeaders: ["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-Catalogue-Signature"],
    }),
  );
  // Load balancers' health checks and Prometheus's scrapes pass without a key or a rate limit.
  // Neither is under /v1/, whose requests skip their routes.
  app.use(exceptUnder("/v1/", healthRouter(db, search, readiness)));
  if (metrics?.serve) app.use(exceptUnder("/v1/", metricsRouter(productMetrics)));
  app.use(signedAnswers(answerKeys));
  app.use(requestGuard(accounts, sales));
  // Before the response cache: a request that must pay is never served a cached answer for free.
  if (sales) app.use(sales.gate(exportRowCounter(pool, search)));
  // The pages for people, before the response cache: `/` answers HTML or JSON by Accept. None is
  // under /v1/, whose requests skip their routes.
  app.use(exceptUnder("/v1/", pagesRouter(pool, search)));
  if (responseCache) app.use(serveCachedResponses(responseCache));
  // The busiest routers first: Express walks them in this order for every request.
  app.use(servicesRouter(pool, search));
  app.use(endpointsRouter(search));
  app.use(exportsRouter(pool, search));
  app.use(catalogueRouter(pool));
  app.use(probeSweepsRouter(pool));
  app.use(mcpRouter(new CatalogueReader({ pool, search }), logger, preflight, registrar));
  app.use(preflightRouter(preflight));
  app.use(registrationsRouter(registrar));
  app.use(docsRouter(sales?.settings));
  app.use(llmsRouter(sales?.settings));
  app.use(answerKeysRouter(answerKeys));
  if (sales) app.use(salesManifestRouter(sales.settings));
  app.use(accountsRouter(db, pool, accounts));
  app.use(paymentOrdersRouter(db, pool, settlementChains));
  app.use(
    subscriptionsRouter(db, pool, {
      chains: new Map(settlementChains.map((chain) => [chain.chain, chain])),
      graceMs: subscriptionGraceMs,
    }),
  );
  app.use(eventsRouter(pool));
  app.use(webhooksRouter({ db, logger, ...webhooks }));
  app.use(
    ownershipRouter({
      ownership: ownershipWith(db, ownership),
      webhooks: { ...webhooks, logger },
      registrar,
    }),
  );
  app.use(x402PaymentsRouter(db));
  app.use(rootRouter());
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
