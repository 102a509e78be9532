import { appendFile } from "node:fs/promises";
import pg from "pg";

/** How often one index was used by queries in one database since its statistics began. */
export interface IndexUsage {
  table: string;
  index: string;
  scans: number;
  /** Unique and primary-key indexes enforce constraints, so they stay whether or not reads use them. */
  enforcesConstraint: boolean;
}

/** The index statistics of one database (pg_stat_user_indexes), as the audit of unused indexes reads them. */
export async function readIndexUsage(databaseUrl: string): Promise<IndexUsage[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string; index: string; scans: string; enforces: boolean }>(
      `SELECT s.relname AS table, s.indexrelname AS index, s.idx_scan::text AS scans,
              (i.indisunique OR i.indisprimary) AS enforces
       FROM pg_stat_user_indexes s JOIN pg_index i ON i.indexrelid = s.indexrelid
       WHERE s.schemaname = 'public'`,
    );
    return rows.map((row) => ({
      table: row.table,
      index: row.index,
      scans: Number(row.scans),
      enforcesConstraint: row.enforces,
    }));
  } finally {
    await client.end();
  }
}

/**
 * When INDEX_USAGE_LOG names a file, appends this database's index statistics to it (one JSON
 * line per index) before a test or benchmark drops the database: `bench/index-usage.ts` then sums
 * them over a whole test and benchmark run.
 */
export async function logIndexUsage(databaseUrl: string): Promise<void> {
  const file = process.env.INDEX_USAGE_LOG;
  if (!file) return;
  const usage = await readIndexUsage(databaseUrl);
  await appendFile(file, usage.map((row) => `${JSON.stringify(row)}\n`).join(""));
}
