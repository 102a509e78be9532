import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "../generated/prisma/client";

export type Database = PrismaClient;

/**
 * The app's Prisma client, on the pg driver adapter (no native query engine). Given a pool, it
 * runs over that pool (npm start: one pool per process, shared with the raw SQL of the API; the
 * pool is not closed by $disconnect); given a URL, over a pool of its own (one-shot jobs, tests).
 */
export function createPrismaClient(connection: string | pg.Pool, maxConnections = 10): Database {
  const adapter =
    typeof connection === "string"
      ? new PrismaPg({ connectionString: connection, max: maxConnections })
      : new PrismaPg(connection);
  return new PrismaClient({ adapter });
}
