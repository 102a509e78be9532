// `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded Postgres), then exit.
import { loadConfig } from "../src/config/config";
import { createLogger } from "../src/logging/logger";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";

await runCli(async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const server = await openDatabaseServer(config, logger);
  await server.stop();
});
