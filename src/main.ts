// `npm start`: the product. Serves the API and runs the crawl schedule until SIGINT/SIGTERM.
import { runCli } from "./runtime/cli";
import { startProduct } from "./runtime/product";
import { Shutdown } from "./runtime/shutdown";

await runCli("x402 catalogue", async ({ config, logger }) => {
  const shutdown = new Shutdown(logger);
  shutdown.listenForSignals();
  try {
    await startProduct(config, logger, shutdown);
    return undefined; // runs until a signal
  } catch (error) {
    logger.fatal({ err: error }, "start-up failed");
    await shutdown.close();
    return 1;
  }
});
