import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";

export type Database = PrismaClient;

/** The app's Prisma client, on the pg driver adapter (no native query engine). */
export function createPrismaClient(databaseUrl: string, maxConnections = 10): Database {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: maxConnections }) });
}
