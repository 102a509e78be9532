import type { Response } from "express";

/**
 * What a CSV export tells the accounts layer, without knowing about it: the request guard
 * attaches a meter to an export's response, the CSV writer reserves the rows it is about to send
 * (refused: an HttpError, before anything is sent) and reports each batch it sent.
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
