import pg from "pg";
import type { Prisma } from "../generated/prisma/client";
import type { ReadPool } from "./read-pool";
import { utcTimestampsAsIso } from "./utc-timestamps";

/**
 * Rows per FETCH: enough to amortise the round trip (the next batch is fetched while this one is
 * written), few enough that a batch in flight stays small.
 */
const DEFAULT_BATCH_SIZE = 500;

/**
 * A query's rows as arrays, collected from its row events into a fresh array, rather than through
 * client.query's promise. Measured on 500,000 history rows: through the promise, 60-70% of the
 * bytes allocated survived each young-generation collection and were promoted, so the heap grew by
 * ~220 MB of dead rows before a full collection came (in a process holding the ~100 MB catalogue
 * index); collected this way, ~0% survived, the growth was ~16 MB, and fetching was ~60% faster.
 * Our reading (not pinned down in V8): the result object's row array ends up in the old
 * generation, and whatever an old object points to survives young collections.
 */
function fetchRows(client: pg.PoolClient, text: string): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    const rows: unknown[][] = [];
    const config: pg.QueryArrayConfig = { text, rowMode: "array", types: utcTimestampsAsIso };
    const query = new pg.Query<unknown[]>(config);
    query.on("row", (row) => rows.push(row));
    query.on("end", () => resolve(rows));
    query.on("error", reject);
    client.query(query);
  });
}

/**
 * The rows of a query in batches, read through a server-side cursor (DECLARE/FETCH in a
 * read-only transaction on a dedicated connection), so memory stays constant however many rows
 * there are. Rows are arrays in select-list order, timestamps as ISO 8601 text in UTC (the
 * transaction's TimeZone is UTC, see utc-timestamps.ts). Stopping early (the consumer returns or
 * throws, e.g. the client went away) closes the cursor and gives the connection back.
 */
export async function* cursorBatches(
  pool: ReadPool,
  query: Prisma.Sql,
  batchSize = DEFAULT_BATCH_SIZE,
): AsyncGenerator<unknown[][], void, undefined> {
  const client = await pool.connect();
  let open = false;
  let broken = false;
  try {
    await client.query("BEGIN READ ONLY");
    open = true;
    await client.query("SET LOCAL TimeZone = 'UTC'");
    // Every row is read: plan for the whole result, not the first 10% (the cursor default), which
    // chose per-row nested loops for services.csv's aggregates (25,000 rows: 212 s instead of seconds).
    await client.query("SET LOCAL cursor_tuple_fraction = 1");
    await client.query({
      text: `DECLARE export_cursor NO SCROLL CURSOR FOR ${query.text}`,
      values: query.values,
    });
    const fetchNext = () => fetchRows(client, `FETCH FORWARD ${batchSize} FROM export_cursor`);
    let next = fetchNext();
    for (;;) {
      const rows = await next;
      const more = rows.length === batchSize;
      // Ask for the next batch before handing this one over: Postgres produces it while the
      // consumer formats this one (two cores at work instead of taking turns).
      if (more) {
        next = fetchNext();
        // Not awaited if the consumer stops early; the finally block's ROLLBACK waits for it.
        next.catch(() => undefined);
      }
      if (rows.length > 0) yield rows;
      if (!more) break;
    }
    await client.query("COMMIT");
    open = false;
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // Also reached when the consumer stops early: the transaction (and its cursor) is rolled
    // back before the connection goes back to the pool. A connection that failed is discarded.
    if (open && !broken) await client.query("ROLLBACK").catch(() => undefined);
    client.release(broken);
  }
}

let cursorsDeclared = 0;

/**
 * The rows of a query in batches through a cursor on `client`, inside the transaction the caller
 * holds: several queries then read one snapshot (REPEATABLE READ), and however many rows there
 * are, only a batch is in memory at a time. Other queries may run on the client between batches,
 * unless `readAhead` is set: then the next batch is asked for before this one is handed over
 * (Postgres produces it meanwhile, as in cursorBatches), and the client must run nothing else
 * until the last batch (node-postgres would queue it, a use it deprecates).
 */
export async function* rowsInBatches<Row extends pg.QueryResultRow>(
  client: pg.PoolClient,
  query: Prisma.Sql,
  batchSize: number,
  { readAhead = false }: { readAhead?: boolean } = {},
): AsyncGenerator<Row[], void, undefined> {
  cursorsDeclared += 1;
  const name = `rows_${cursorsDeclared}`;
  // Every row is read: plan for the whole result (see cursorBatches).
  await client.query("SET LOCAL cursor_tuple_fraction = 1");
  await client.query({ text: `DECLARE ${name} NO SCROLL CURSOR FOR ${query.text}`, values: query.values });
  const fetchNext = () => client.query<Row>(`FETCH FORWARD ${batchSize} FROM ${name}`);
  let next: Promise<pg.QueryResult<Row>> | null = null;
  try {
    for (;;) {
      const { rows } = await (next ?? fetchNext());
      next = null;
      const more = rows.length === batchSize;
      if (more && readAhead) {
        next = fetchNext();
        // Not awaited if the consumer stops early; the CLOSE below waits for it.
        next.catch(() => undefined);
      }
      if (rows.length > 0) yield rows;
      if (!more) return;
    }
  } finally {
    await client.query(`CLOSE ${name}`).catch(() => undefined);
  }
}
