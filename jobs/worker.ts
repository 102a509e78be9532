// `npm run worker`: serves the probe queue, delivers webhooks and reads chain activity
// (ACTIVITY_CHAINS) until SIGINT/SIGTERM, and serves its metrics on METRICS_PORT when set. Start
// any number, on any machine, all with the same DATABASE_URL: they share the work and the sweep
// fires once across them. Without DATABASE_URL it uses the embedded Postgres of this directory
// (shared with `npm start`).
import { startConfiguredActivity } from "../src/activity/activity-runner";
import { createPrismaClient } from "../src/db/prisma-client";
import { createReadPool } from "../src/db/read-pool";
import { exposeMetrics, metricsSettingsFromConfig } from "../src/metrics/serve-metrics";
import { probeSettingsFromConfig } from "../src/probe/settings";
import { startProbing } from "../src/probe/start-probing";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { DATABASE_LOST, Shutdown } from "../src/runtime/shutdown";
import { DELIVERY_CONNECTIONS, startWebhookDelivery } from "../src/webhooks/delivery-worker";
import { SecretKeyRing } from "../src/webhooks/secret-keys";
import { openWebhookSecrets } from "../src/webhooks/secret-sealing";
import { webhookSettingsFromConfig } from "../src/webhooks/settings";

await runCli("worker", async ({ config, logger }) => {
  const settings = probeSettingsFromConfig(config);
  const webhookSettings = webhookSettingsFromConfig(config);
  if (!settings.enabled && !webhookSettings.deliver && config.ACTIVITY_CHAINS.length === 0) {
    logger.warn(
      "PROBE_ENABLED and WEBHOOK_DELIVERY_ENABLED are false and ACTIVITY_CHAINS is empty: a worker has nothing to do",
    );
    return 0;
  }
  const shutdown = new Shutdown(logger);
  // Closers run in reverse: probes and deliveries finish and the queue closes before the
  // database goes away.
  shutdown.listenForSignals();
  try {
    const server = await openDatabaseServer(config, logger);
    shutdown.register("database server", () => server.stop());
    server.onLost(() => shutdown.fail(DATABASE_LOST));
    const connections = Math.min(settings.concurrency, 16) + DELIVERY_CONNECTIONS + 2;
    const pool = createReadPool(server.url, connections, logger);
    shutdown.register("database pool", () => pool.end());
    const db = createPrismaClient(pool);
    shutdown.register("database client", () => db.$disconnect());
    const exposed = await exposeMetrics(metricsSettingsFromConfig(config), { worker: pool }, false, logger);
    shutdown.register("metrics listener", () => exposed.close());
    const probing = await startProbing({ db, databaseUrl: server.url, settings, logger, runWorker: true });
    shutdown.register("probe workers", () => probing.stop());
    const webhooks = await startWebhookDelivery({
      db,
      databaseUrl: server.url,
      settings: webhookSettings,
      // A worker that delivers nothing never opens a secret, so it needs no key.
      keys: webhookSettings.deliver
        ? await openWebhookSecrets(config, db, logger)
        : SecretKeyRing.ephemeral(),
      logger,
    });
    shutdown.register("webhook delivery", () => webhooks.stop());
    const activity = startConfiguredActivity(config, { databaseUrl: server.url, db, logger });
    shutdown.register("chain activity readers", () => activity.stop());
    logger.info(
      {
        probeConcurrency: settings.enabled ? settings.concurrency : 0,
        webhookConcurrency: webhookSettings.deliver ? webhookSettings.concurrency : 0,
        activityChains: config.ACTIVITY_CHAINS.map((chain) => chain.chain),
      },
      "worker ready",
    );
    return undefined; // runs until a signal
  } catch (error) {
    logger.fatal({ err: error }, "worker start-up failed");
    await shutdown.close();
    return 1;
  }
});
