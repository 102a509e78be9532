// `npm run probe`: one probe sweep of every endpoint of every listed service, then exit with a
// summary. For cron, or to check a new source right away. Exit codes: 0 the sweep ran (the
// summary counts each outcome), 1 it could not run (or probing is disabled), 130 stopped by a signal.
import { createPrismaClient } from "../src/db/prisma-client";
import { probeSettingsFromConfig } from "../src/probe/settings";
import { sweepOnce, sweepSummaryLine } from "../src/probe/sweep-once";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { DATABASE_LOST, Shutdown } from "../src/runtime/shutdown";

await runCli("probe sweep", async ({ config, logger }) => {
  const settings = probeSettingsFromConfig(config);
  if (!settings.enabled) {
    logger.error("PROBE_ENABLED is false: no probe sweep");
    return 1;
  }
  const shutdown = new Shutdown(logger);
  // A stop signal (SIGINT, SIGTERM, SIGHUP) aborts the work, which is recorded as aborted; then
  // the closers run.
  shutdown.listenForSignals(() => shutdown.abort());
  try {
    const server = await openDatabaseServer(config, logger);
    shutdown.register("database server", () => server.stop());
    server.onLost(() => shutdown.fail(DATABASE_LOST));
    const db = createPrismaClient(server.url, Math.min(settings.concurrency, 16) + 2);
    shutdown.register("database client", () => db.$disconnect());
    const summary = await sweepOnce({ db, settings, logger, signal: shutdown.signal });
    logger.info({ summary }, sweepSummaryLine(summary));
    return summary.aborted ? 130 : 0;
  } finally {
    await shutdown.close();
  }
});
