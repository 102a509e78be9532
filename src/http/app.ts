import express, { type Express } from "express";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import { errorHandler, notFoundHandler } from "./errors";
import { healthRouter } from "./health";

export interface AppDependencies {
  db: Database;
  logger: Logger;
}

/** The HTTP API as a function of its dependencies, so tests start the real app in-process. */
export function createApp({ db, logger }: AppDependencies): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "extended");
  app.use(healthRouter(db));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
