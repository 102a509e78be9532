// `npm run worker`: serves the probe queue until SIGINT/SIGTERM. Start any number, on any machine,
// all with the same DATABASE_URL: they share the work and the sweep fires once across them.
// Without DATABASE_URL it uses the embedded Postgres of this directory (shared with `npm start`).
import { createPrismaClient } from "../src/db/prisma-client";
import { probeSettingsFromConfig } from "../src/probe/settings";
import { startProbing } from "../src/probe/start-probing";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { DATABASE_LOST, Shutdown } from "../src/runtime/shutdown";

await runCli("probe worker", async ({ config, logger }) => {
  const settings = probeSettingsFromConfig(config);
  if (!settings.enabled) {
    logger.warn("PROBE_ENABLED is false: a probe worker has nothing to do");
    return 0;
  }
  const shutdown = new Shutdown(logger);
  // Closers run in reverse: probes finish and the queue closes before the database goes away.
  shutdown.listenForSignals();
  try {
    const server = await openDatabaseServer(config, logger);
    shutdown.register("database server", () => server.stop());
    server.onLost(() => shutdown.fail(DATABASE_LOST));
    const db = createPrismaClient(server.url, Math.min(settings.concurrency, 16) + 2);
    shutdown.register("database client", () => db.$disconnect());
    const probing = await startProbing({ db, databaseUrl: server.url, settings, logger, runWorker: true });
    shutdown.register("probe workers", () => probing.stop());
    logger.info({ concurrency: settings.concurrency }, "probe worker ready");
    return undefined; // runs until a signal
  } catch (error) {
    logger.fatal({ err: error }, "worker start-up failed");
    await shutdown.close();
    return 1;
  }
});
