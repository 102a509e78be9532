// `npm run keys -- create|list|revoke …`: operators manage organisations' API keys. The result
// alone goes to stdout (KEY=$(npm run --silent keys -- create …) captures the key); logs and
// messages go to stderr.
import { KEYS_USAGE, parseKeysCommand, runKeysCommand, UsageError } from "../src/accounts/keys-command";
import { createPrismaClient } from "../src/db/prisma-client";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";

await runCli(
  "keys",
  async ({ config, logger }) => {
    let command: ReturnType<typeof parseKeysCommand>;
    try {
      command = parseKeysCommand(process.argv.slice(2));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      console.error(`${error.message}\n${KEYS_USAGE}`);
      return 2;
    }
    const server = await openDatabaseServer(config, logger);
    const db = createPrismaClient(server.url, 2);
    try {
      return await runKeysCommand(db, command, {
        result: (text) => process.stdout.write(`${text}\n`),
        message: (text) => process.stderr.write(`${text}\n`),
      });
    } finally {
      await db.$disconnect();
      await server.stop();
    }
  },
  "stderr",
);
