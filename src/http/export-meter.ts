import type { Response } from "express";

/**
 * What a CSV export tells the accounts layer, without knowing about it: the request guard
 * attaches a meter to an export's response, the CSV writer reserves the rows it is about to send
 * (refused: an HttpError, before anything is sent) and reports each batch it sent. A paid export
 * is capped at the rows it paid for.
 */
export interface ExportMeter {
  reserve(rows: number): Promise<void>;
  sent(rows: number): void;
}

const meters = new WeakMap<Response, ExportMeter>();

export function attachExportMeter(res: Response, meter: ExportMeter): void {
  meters.set(res, meter);
}

export async function reserveExportRows(res: Response, rows: number): Promise<void> {
  await meters.get(res)?.reserve(rows);
}

export function countSentRows(res: Response, rows: number): void {
  meters.get(res)?.sent(rows);
}

const rowCaps = new WeakMap<Response, number>();

/** The most rows an export may send (a paid export: the rows it paid for). */
export function capExportRows(res: Response, rows: number): void {
  rowCaps.set(res, rows);
}

/** The export's `limit`, lowered to the rows it may send when it is capped. */
export function cappedExportLimit(res: Response, limit: number | undefined): number | undefined {
  const cap = rowCaps.get(res);
  if (cap === undefined) return limit;
  return limit === undefined ? cap : Math.min(limit, cap);
}
