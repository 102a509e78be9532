// `npm run probe [-- --json]`: one probe sweep of every endpoint of every listed service, then exit.
// For cron, or to check a new source right away. The summary is the result, on stdout (one line,
// or one JSON document with --json); logs go to stderr. Exit codes: 0 the sweep ran (the summary
// counts each outcome), 1 it could not run (or probing is disabled), 2 a bad command line,
// 130 stopped by a signal.
import { parseArgs } from "node:util";
import { createPrismaClient } from "../src/db/prisma-client";
import { probeSettingsFromConfig } from "../src/probe/settings";
import { sweepOnce, sweepSummaryLine } from "../src/probe/sweep-once";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { DATABASE_LOST, Shutdown } from "../src/runtime/shutdown";

const USAGE = "Usage: npm run probe [-- --json]";

await runCli(
  "probe sweep",
  async ({ config, logger }) => {
    let json: boolean;
    try {
      json =
        parseArgs({ args: process.argv.slice(2), options: { json: { type: "boolean" } } }).values.json ??
        false;
    } catch (error) {
      console.error(`${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    const settings = probeSettingsFromConfig(config);
    if (!settings.enabled) {
      logger.error("PROBE_ENABLED is false: no probe sweep");
      return 1;
    }
    const shutdown = new Shutdown(logger);
    // A stop signal (SIGINT, SIGTERM, SIGHUP) ends the sweep early; then the closers run.
    shutdown.listenForSignals(() => shutdown.abort());
    try {
      const server = await openDatabaseServer(config, logger);
      shutdown.register("database server", () => server.stop());
      server.onLost(() => shutdown.fail(DATABASE_LOST));
      const db = createPrismaClient(server.url, Math.min(settings.concurrency, 16) + 2);
      shutdown.register("database client", () => db.$disconnect());
      const summary = await sweepOnce({ db, settings, logger, signal: shutdown.signal });
      process.stdout.write(`${json ? JSON.stringify(summary) : sweepSummaryLine(summary)}\n`);
      return summary.aborted ? 130 : 0;
    } finally {
      await shutdown.close();
    }
  },
  "stderr",
);
