import type { Express } from "express";
import { type AccountSettings, Accounts } from "../../src/accounts/accounts";
import { API_KEYS_CHANGED_CHANNEL } from "../../src/accounts/key-cache";
import { listenFor } from "../../src/db/notifications";
import { createReadPool, type ReadPool } from "../../src/db/read-pool";
import { type AppDependencies, createApp } from "../../src/http/app";
import type { Logger } from "../../src/logging/logger";
import type { TestDatabase } from "./database";
import { testLogger } from "./logger";
import { testRegistrar } from "./registrations";

export interface TestApp {
  app: Express;
  pool: ReadPool;
  accounts: Accounts;
  close(): Promise<void>;
}

/** Tests of the catalogue make many requests (and exports) from one address: limits they never reach. */
const GENEROUS: AccountSettings = {
  anonymousRequestsPerMinute: 1_000_000,
  anonymousCsvRowsPerDay: 1_000_000_000,
  usageFlushMs: 60_000,
  exportsPerCaller: 1_000,
  exportsPerProcess: 1_000,
};

export interface TestAppOptions {
  accountSettings?: Partial<AccountSettings>;
  trustProxy?: AppDependencies["trustProxy"];
  logger?: Logger;
  settlementChains?: AppDependencies["settlementChains"];
  webhooks?: AppDependencies["webhooks"];
  subscriptionGraceMs?: AppDependencies["subscriptionGraceMs"];
  metrics?: AppDependencies["metrics"];
  preflight?: AppDependencies["preflight"];
  answerKeys?: AppDependencies["answerKeys"];
  sales?: AppDependencies["sales"];
  responseCache?: AppDependencies["responseCache"];
  /** Registrations (src/registrations), made with the app's pool; default: testRegistrar's. */
  registrar?: (pool: ReadPool) => NonNullable<AppDependencies["registrar"]>;
  ownership?: AppDependencies["ownership"];
}

/**
 * The real app on a test database: Prisma for health and accounts, a pg pool for reads and CSV,
 * and verified keys kept in memory as `npm start` keeps them (API key change notifications).
 */
export function createTestApp(
  database: Pick<TestDatabase, "db" | "url">,
  options: TestAppOptions = {},
): TestApp {
  const logger = options.logger ?? testLogger;
  const pool = createReadPool(database.url, 5, logger);
  const keyChanges = listenFor(database.url, API_KEYS_CHANGED_CHANNEL, logger);
  const accounts = new Accounts(pool, logger, { ...GENEROUS, ...options.accountSettings }, keyChanges);
  const app = createApp({
    db: database.db,
    pool,
    logger,
    accounts,
    trustProxy: options.trustProxy,
    settlementChains: options.settlementChains,
    webhooks: options.webhooks,
    subscriptionGraceMs: options.subscriptionGraceMs,
    metrics: options.metrics,
    preflight: options.preflight,
    answerKeys: options.answerKeys,
    sales: options.sales,
    responseCache: options.responseCache,
    registrar: (options.registrar ?? testRegistrar(database))(pool),
    ownership: options.ownership,
  });
  return {
    app,
    pool,
    accounts,
    close: async () => {
      await accounts.close();
      await keyChanges.close();
      await pool.end();
    },
  };
}
