import type { PoolConfig } from "pg";

/**
 * Discrete pg pool fields from a postgres:// URL. Prisma's migration adapter must be given
 * discrete fields (not a connectionString): with a connectionString its shadow-database pool
 * would connect to the main database instead of the shadow one.
 */
export function poolConfigFromUrl(databaseUrl: string): PoolConfig {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema");
  const sslmode = url.searchParams.get("sslmode");
  return {
    host: decodeURIComponent(url.hostname),
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, "")) || "postgres",
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    ...(sslmode && sslmode !== "disable" ? { ssl: { rejectUnauthorized: sslmode === "verify-full" } } : {}),
  };
}

/** The same URL pointing at another database on the same server. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
