// `npm run --silent mcp`: the catalogue's MCP server on stdio, for desktop agents that start it
// as a child process. stdout carries only the protocol (logs go to stderr); it reads the same
// database as `npm start` (DATABASE_URL, or the embedded Postgres in CATALOGUE_DATA_DIR).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createPrismaClient } from "../src/db/prisma-client";
import { createReadPool } from "../src/db/read-pool";
import { catalogueSerialisers } from "../src/http/catalogue-listing";
import { CatalogueReader } from "../src/mcp/catalogue-reader";
import { createCatalogueMcpServer, MCP_SERVER_INFO } from "../src/mcp/server";
import { probeSettingsFromConfig } from "../src/probe/settings";
import { registrarFromConfig } from "../src/registrations/registrar";
import { runCli } from "../src/runtime/cli";
import { openDatabaseServer } from "../src/runtime/database";
import { Shutdown } from "../src/runtime/shutdown";
import { catalogueImages, InMemoryCatalogueSearch } from "../src/search/catalogue-search";
import { preflightWith } from "../src/trust/preflight";

await runCli(
  "mcp server",
  async ({ config, logger }) => {
    const shutdown = new Shutdown(logger);
    shutdown.listenForSignals();
    try {
      const server = await openDatabaseServer(config, logger);
      shutdown.register("database server", () => server.stop());
      const pool = createReadPool(server.url, 4, logger);
      shutdown.register("read pool", () => pool.end());
      const search = new InMemoryCatalogueSearch({
        pool,
        logger,
        serialisers: catalogueSerialisers,
        refreshMs: config.API_INDEX_REFRESH_SECONDS * 1000,
        images: catalogueImages(config.CATALOGUE_IMAGES),
      });
      const reader = new CatalogueReader({ pool, search });
      // preflight_endpoint records probes of catalogued endpoints, through Prisma on the same pool.
      const db = createPrismaClient(pool);
      shutdown.register("prisma", () => db.$disconnect());
      // One desktop agent is the only caller of a stdio server; it registers as one anonymous address.
      const registrar = registrarFromConfig(config, { db, pool, databaseUrl: server.url, logger });
      const live = {
        preflight: preflightWith(db, probeSettingsFromConfig(config)),
        caller: "stdio",
        registration: { registrar, submitter: { kind: "anonymous" as const, address: "stdio" } },
      };
      const mcp = createCatalogueMcpServer(reader, MCP_SERVER_INFO, live);
      const transport = new StdioServerTransport();
      // The client closing stdin ends the session, and with it this process, at once: a client
      // waits a moment, then sends SIGTERM, and a server still running then was killed midway.
      let ended = false;
      const inputEnded = () => {
        if (ended) return;
        ended = true;
        logger.info("stdin closed: the MCP session is over, shutting down");
        shutdown.stop();
      };
      process.stdin.once("end", inputEnded);
      process.stdin.once("close", inputEnded);
      transport.onclose = () => shutdown.stop();
      shutdown.register("mcp server", () => mcp.close());
      await mcp.connect(transport);
      logger.info("MCP server ready on stdio");
      return undefined; // runs until the client closes stdin or a signal
    } catch (error) {
      logger.fatal({ err: error }, "MCP server start-up failed");
      await shutdown.close();
      return 1;
    }
  },
  "stderr",
);
