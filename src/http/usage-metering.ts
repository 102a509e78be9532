import type { Response } from "express";

/**
 * CSV exports count the rows they send toward the key's usage. The guard attaches a meter to a
 * keyed request's response; the CSV writer reports each batch without knowing about accounts.
 */
const meters = new WeakMap<Response, (rows: number) => void>();

export function attachRowMeter(res: Response, meter: (rows: number) => void): void {
  meters.set(res, meter);
}

export function countSentRows(res: Response, rows: number): void {
  meters.get(res)?.(rows);
}
