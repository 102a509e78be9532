// `npm run crawl -- [--kind bazaar|html_directory] [URL]`: one crawl of URL (or of every configured
// source, one after another), then exit. For system cron or a Kubernetes CronJob; see
// crawlExitCode for what the exit code means (several sources: the most serious outcome).
import { combinedExitCode, crawlExitCode } from "../src/crawl-run/exit-code";
import { crawlSettingsFromConfig } from "../src/crawl-run/settings";
import { createPrismaClient } from "../src/db/prisma-client";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { DATABASE_LOST, Shutdown } from "../src/runtime/shutdown";
import { CRAWL_USAGE, parseCrawlArgs, wantsHelp } from "../src/sources/crawl-args";
import { crawlSource } from "../src/sources/crawl-source";

const argv = process.argv.slice(2);
if (wantsHelp(argv)) console.log(CRAWL_USAGE);
else
  await runCli("crawl", async ({ config, logger }) => {
    const request = parseCrawlArgs(argv, config);
    if ("error" in request) {
      console.error(`${request.error}\n${CRAWL_USAGE}`);
      return 2;
    }
    const shutdown = new Shutdown(logger);
    // A stop signal (SIGINT, SIGTERM, SIGHUP) aborts the work, which is recorded as aborted; then
    // the closers run.
    shutdown.listenForSignals(() => shutdown.abort());
    try {
      const server = await openDatabaseServer(config, logger);
      shutdown.register("database server", () => server.stop());
      server.onLost(() => shutdown.fail(DATABASE_LOST));
      const db = createPrismaClient(server.url);
      shutdown.register("database client", () => db.$disconnect());
      const deps = { db, databaseUrl: server.url, logger, settings: crawlSettingsFromConfig(config) };
      const codes: number[] = [];
      for (const source of request.sources) {
        if (shutdown.signal.aborted) break;
        codes.push(crawlExitCode(await crawlSource(deps, source, "manual", shutdown.signal)));
      }
      return shutdown.signal.aborted ? 130 : combinedExitCode(codes);
    } finally {
      await shutdown.close();
    }
  });
