import type { Config } from "../config/config";
import { startEmbeddedPostgres } from "../db/embedded-postgres";
import { applyMigrations } from "../db/migrate";
import type { Logger } from "../logging/logger";

export interface DatabaseServer {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
  /** Calls back if the embedded server goes away underneath us; never for an external one. */
  onLost(callback: () => void): void;
}

/** The configured Postgres, or an embedded one when DATABASE_URL is unset; migrations applied. */
export async function openDatabaseServer(config: Config, logger: Logger): Promise<DatabaseServer> {
  const server: DatabaseServer = config.DATABASE_URL
    ? { url: config.DATABASE_URL, embedded: false, stop: async () => {}, onLost: () => {} }
    : {
        ...(await startEmbeddedPostgres({
          dataDir: config.CATALOGUE_DATA_DIR,
          preferredPort: config.EMBEDDED_POSTGRES_PORT,
          database: "catalogue",
          logger,
        })),
        embedded: true,
      };
  try {
    await applyMigrations(server.url, logger);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
