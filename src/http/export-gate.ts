import type { Response } from "express";
import type { Accounts } from "../accounts/accounts";
import type { ExportUse } from "../accounts/export-allowance";
import { HttpError } from "./errors";
import { attachExportMeter } from "./export-meter";

/** When a caller over the concurrency caps may try again: exports usually end within seconds. */
const BUSY_RETRY_SECONDS = 5;

function allowanceReached(res: Response, allowance: number, used: ExportUse): HttpError {
  res.set("Retry-After", String(Math.max(1, Math.ceil(used.resetMs / 1000))));
  return new HttpError(
    429,
    `CSV export allowance reached: ${allowance} rows a day, ${used.rows} exported in this 24-hour window; ` +
      "retry after the Retry-After seconds, or use a key of a plan with more (GET /v1/plans)",
  );
}

/**
 * Lets a CSV export of `caller` (an organisation's environment, or a client address) start:
 * within this process's concurrency caps (EXPORT_CONCURRENCY_PER_CALLER, _PER_PROCESS) and
 * while the caller's daily allowance is not spent. The export then reserves its rows before it
 * sends any (export-allowance.ts) and is counted at what it sent when its answer closes.
 */
export async function admitExport(
  accounts: Accounts,
  res: Response,
  caller: string,
  allowance: number,
  onRows?: (rows: number) => void,
): Promise<void> {
  const slot = accounts.exportSlots.take(caller);
  if (typeof slot === "string") {
    const { perCaller, perProcess } = accounts.exportSlots;
    res.set("Retry-After", String(BUSY_RETRY_SECONDS));
    throw new HttpError(
      429,
      slot === "caller"
        ? `Too many CSV exports at once: ${perCaller} per caller; retry after the Retry-After seconds`
        : `Too many CSV exports at once on this server (${perProcess}); retry after the Retry-After seconds`,
    );
  }
  res.once("close", slot.release);
  const used = await accounts.exports.used(caller);
  if (used.rows >= allowance) throw allowanceReached(res, allowance, used);
  let sent = 0;
  attachExportMeter(res, {
    reserve: async (rows) => {
      const reservation = await accounts.exports.reserve(caller, rows, allowance);
      if (!reservation.granted) throw allowanceReached(res, allowance, reservation.before);
      res.once("close", () => void accounts.exports.settle(caller, reservation, sent));
    },
    sent: (rows) => {
      sent += rows;
      onRows?.(rows);
    },
  });
}

/** Whether `caller` has exported its whole daily allowance (a keyless caller then pays for exports). */
export async function exportAllowanceSpent(
  accounts: Accounts,
  caller: string,
  allowance: number,
): Promise<boolean> {
  return (await accounts.exports.used(caller)).rows >= allowance;
}
