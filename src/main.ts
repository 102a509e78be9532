// `npm start`: the product. Serves the API and runs the crawl schedule until SIGINT/SIGTERM.
import { loadConfig } from "./config/config";
import { createLogger } from "./logging/logger";
import { runCli } from "./runtime/cli";
import { startProduct } from "./runtime/product";
import { Shutdown } from "./runtime/shutdown";

await runCli(async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const shutdown = new Shutdown(logger);
  shutdown.listenForSignals();
  try {
    await startProduct(config, logger, shutdown);
  } catch (error) {
    logger.fatal({ err: error }, "start-up failed");
    await shutdown.close();
    return 1;
  }
});
