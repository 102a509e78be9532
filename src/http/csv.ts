import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Options, stringify } from "csv-stringify/sync";
import type { Request, Response } from "express";
import { cursorBatches } from "../db/cursor";
import type { ReadPool } from "../db/read-pool";
import type { Prisma } from "../generated/prisma/client";
import { countSentRows, reserveExportRows } from "./export-meter";

export interface CsvExport {
  pool: ReadPool;
  /** Rows as arrays, in the order of `columns`. */
  query: Prisma.Sql;
  columns: readonly string[];
  filename: string;
  /** How many rows the query yields: reserved against the caller's daily allowance before any is sent. */
  rows: number;
}

const CSV_OPTIONS: Options = {
  // The directory's text is untrusted: a cell starting with = + - @ tab or CR gets a leading '
  // so that a spreadsheet never runs it as a formula (numbers are left alone).
  escape_formulas: true,
  record_delimiter: "windows",
  // Also quote fields holding a lone \n or \r, not only \r\n: RFC 4180 allows no bare line break.
  quote_record_delimiter: true,
};

/**
 * One CSV text per cursor batch. csv-stringify's synchronous API on a whole batch is 2-3 times
 * faster than its stream (which pays stream machinery per record); memory stays one batch.
 */
async function* csvText(batches: AsyncIterable<unknown[][]>, columns: readonly string[], res: Response) {
  yield stringify([[...columns]], CSV_OPTIONS);
  for await (const rows of batches) {
    countSentRows(res, rows.length);
    yield stringify(rows, CSV_OPTIONS);
  }
}

function isPrematureClose(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "ERR_STREAM_PREMATURE_CLOSE";
}

/**
 * Streams a query as an RFC 4180 CSV download (header row, CRLF, quoting by csv-stringify): rows
 * come from a database cursor and are written with backpressure (one batch in flight), so memory
 * stays flat whatever the size.
 */
export async function sendCsv(req: Request, res: Response, csv: CsvExport): Promise<void> {
  if (req.method !== "HEAD") await reserveExportRows(res, csv.rows);
  res.status(200).set({
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${csv.filename}"`,
    "Cache-Control": "no-store",
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  try {
    await pipeline(
      Readable.from(csvText(cursorBatches(csv.pool, csv.query), csv.columns, res), { highWaterMark: 1 }),
      res,
    );
  } catch (error) {
    // The client went away: the cursor has been closed, there is nobody to answer.
    if (isPrematureClose(error) && req.destroyed) return;
    if (!res.headersSent) res.removeHeader("Content-Disposition");
    throw error;
  }
}
