// `npm run crawl -- [URL]`: one crawl of URL (or DIRECTORY_URL), then exit. For system cron or a
// Kubernetes CronJob; see crawlExitCode for what the exit code means.
import { loadConfig } from "../src/config/config";
import { crawlDirectory } from "../src/crawl/crawl-directory";
import { crawlExitCode } from "../src/crawl/crawl-exit-code";
import { crawlSettingsFromConfig } from "../src/crawl/settings";
import { createPrismaClient } from "../src/db/prisma-client";
import { createLogger } from "../src/logging/logger";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { Shutdown } from "../src/runtime/shutdown";

await runCli(async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const url = process.argv[2] ?? config.DIRECTORY_URL;
  if (!url) {
    console.error("usage: npm run crawl -- <directory listing URL>   (or set DIRECTORY_URL)");
    return 2;
  }
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    console.error(`not an http(s) URL: ${url}`);
    return 2;
  }
  const shutdown = new Shutdown(logger);
  const server = await openDatabaseServer(config, logger);
  shutdown.register("database server", () => server.stop());
  const db = createPrismaClient(server.url);
  shutdown.register("database client", () => db.$disconnect());
  // A signal aborts the crawl cleanly (recorded as aborted), then the closers run.
  process.once("SIGINT", () => shutdown.abort());
  process.once("SIGTERM", () => shutdown.abort());
  try {
    const outcome = await crawlDirectory(
      { db, databaseUrl: server.url, logger, settings: crawlSettingsFromConfig(config) },
      { url, trigger: "manual", signal: shutdown.signal },
    );
    return crawlExitCode(outcome);
  } finally {
    await shutdown.close();
  }
});
