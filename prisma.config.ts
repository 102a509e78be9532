// Loaded only by the Prisma CLI. Runs migrations on the WASM schema engine through a pg driver
// adapter, because native engines cannot be downloaded on our machines.
import { defineConfig } from "prisma/config";
import { createMigrationAdapter } from "./src/db/migration-adapter";

// The CLI does not read .env when a config file exists, and an unresolved env("DATABASE_URL")
// makes it try to download a query engine. The app always sets it (embedded Postgres included);
// this default only serves `prisma generate`, which never connects.
process.env.DATABASE_URL ??= "postgresql://postgres:postgres@127.0.0.1:5432/catalogue";
const databaseUrl = process.env.DATABASE_URL;

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => createMigrationAdapter(databaseUrl),
});
