// `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded Postgres), then exit.
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";

await runCli("db:migrate", async ({ config, logger }) => {
  const server = await openDatabaseServer(config, logger);
  await server.stop();
  return 0;
});
