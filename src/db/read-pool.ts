import { createHash } from "node:crypto";
import pg from "pg";
import { Prisma } from "../generated/prisma/client";
import type { Logger } from "../logging/logger";

export type ReadPool = pg.Pool;
/** The pool, or one of its connections (for queries that must share a transaction). */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * A plain pg pool for the read API and CSV cursors. The API's SQL is raw anyway (full-text,
 * trigram), and through pg a query costs ~0.1 ms of CPU against ~0.6 ms through Prisma's
 * $queryRaw; pg also returns numeric as exact strings, where $queryRaw turns them into floats.
 */
export function createReadPool(databaseUrl: string, maxConnections = 10, logger?: Logger): ReadPool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    // statement_timeout: a runaway query must not hold a connection for long (one FETCH of a CSV
    // cursor is quick). random_page_cost: the catalogue's working set is cached, so an index
    // lookup costs about a sequential read; at the default (4) Postgres would rather scan every
    // listed service than look up the ~200 that a search matched (measured: -10% CPU per search).
    // plan_cache_mode: prepared statements (QueryOptions.prepared) keep one generic plan from the
    // start; Postgres's default re-plans some of the detail's queries on every run (measured with
    // 1.5M probes: detail SQL 3.9 ms per request with the default, 2.5 ms forced generic).
    options: "-c statement_timeout=15000 -c random_page_cost=1.1 -c plan_cache_mode=force_generic_plan",
  });
  // An idle connection that breaks (database restart) is dropped by the pool and replaced on the
  // next query; without a listener its 'error' event would crash the process.
  pool.on("error", (error) => logger?.warn({ err: error }, "idle database connection lost"));
  // A connection that breaks while checked out (a transaction, a CSV cursor, the catalogue load)
  // fails its queries, so its user sees the error; pg also emits 'error' on the client, which the
  // pool only listens to while the client is idle. Unheard, that event crashed the process when
  // the database stopped mid-transaction (seen in the operations test), before the
  // database-lost handling could exit cleanly.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  return pool;
}

/** Statement names by SQL text: one name stands for one text on every connection. */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

export interface QueryOptions {
  /**
   * Run as a named prepared statement, so each connection plans it once: for the read API's
   * per-request queries, whose planning (~0.2-0.9 ms for the detail's joins and lateral
   * subqueries) costs several times their execution. Only for SQL whose text is one of a few
   * fixed shapes: every distinct text stays prepared on each connection that ran it.
   */
  prepared?: boolean;
}

/**
 * A prepared statement whose text is built once, for a hot query whose SQL is too large to build
 * and name on every request: its parameters are written as $1, $2 … (Prisma.raw) and the values
 * come with each run.
 */
export function fixedStatement(query: Prisma.Sql): { name: string; text: string } {
  if (query.values.length > 0) throw new Error("a fixed statement takes its values at run time, as $1, $2 …");
  return { name: statementName(query.text), text: query.text };
}

/** Where SQL can run: the pool (or one of its connections), or a Prisma client or transaction. */
export type SqlRunner = Queryable | Pick<Prisma.TransactionClient, "$queryRaw">;

/** A value as pg returns it: int8 as its exact decimal text, numeric as decimal text (Prisma's Decimal drops trailing zeros). */
function asPgValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Prisma.Decimal) return value.toFixed();
  return value;
}

/**
 * Runs SQL built with Prisma.sql (parameterised: values never enter the text). Through the pool
 * for the hot reads; inside a transaction (`inTransaction`) through its `$queryRaw`, on the
 * transaction's connection, with int8 and numeric turned back into the text pg gives, so a row
 * reads the same either way.
 */
export async function queryRows<Row extends pg.QueryResultRow>(
  pool: SqlRunner,
  query: Prisma.Sql,
  options: QueryOptions = {},
): Promise<Row[]> {
  if ("$queryRaw" in pool) {
    const rows = await pool.$queryRaw<Record<string, unknown>[]>(query);
    return rows.map((row) => {
      const converted: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row)) converted[key] = asPgValue(value);
      return converted as Row;
    });
  }
  const { text, values } = query;
  const config = options.prepared ? { name: statementName(text), text, values } : { text, values };
  return (await pool.query<Row>(config)).rows;
}
