import type { Config } from "../config/config";
import { crawlDirectory } from "../crawl/crawl-directory";
import { crawlSettingsFromConfig } from "../crawl/settings";
import { createPrismaClient, type Database } from "../db/prisma-client";
import { createApp } from "../http/app";
import { listen } from "../http/server";
import type { Logger } from "../logging/logger";
import { scheduleJob } from "../scheduling/crawl-schedule";
import { openDatabaseServer } from "./database";
import type { Shutdown } from "./shutdown";

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
  const db = createPrismaClient(server.url);
  shutdown.register("database client", () => db.$disconnect());
  const http = await listen(createApp({ db, logger }), config.PORT, config.HOST);
  shutdown.register("http server", () => http.close());
  if (config.DIRECTORY_URL) {
    const url = config.DIRECTORY_URL;
    const deps = { db, databaseUrl: server.url, logger, settings: crawlSettingsFromConfig(config) };
    const job = scheduleJob(
      "crawl",
      config.CRAWL_SCHEDULE,
      async (signal) => {
        await crawlDirectory(deps, { url, trigger: "schedule", signal });
      },
      logger,
    );
    shutdown.register("crawl schedule", () => job.stop());
  } else {
    logger.info("no DIRECTORY_URL set: no crawl is scheduled (`npm run crawl -- URL` crawls once)");
  }
  logger.info(
    { port: http.port, host: config.HOST, embeddedDatabase: server.embedded, ms: Date.now() - started },
    `x402 catalogue listening on http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${http.port}`,
  );
  return { db, port: http.port, databaseUrl: server.url };
}
