import { stringify } from "csv-stringify/sync";
import type { Router } from "express";
import { z } from "zod";
import type { Database } from "../db/prisma-client";
import { x402PaymentData } from "../events/payloads";
import type { X402Payment } from "../generated/prisma/client";
import { apiRouter } from "../http/router";
import { integerParam, listSchema, pagingParams } from "../http/schemas/common";
import { parseInput } from "../http/validation";
import { getX402Payments, x402PaymentJson } from "./x402-payments";

export const x402PaymentListQuery = z.strictObject({ ...pagingParams });
/** The CSV is one bounded read, not a stream: a page of up to 10,000 payments. */
export const x402PaymentCsvQuery = z.strictObject({
  offset: pagingParams.offset,
  limit: integerParam(1, 10_000)
    .default(10_000)
    .meta({ description: "Most rows, 1 to 10,000 (default 10,000)." }),
});

export const x402PaymentListSchema = listSchema(
  x402PaymentData.shape.x402_payment.extend({
    created_at: z.string().meta({ description: "When the payment was first recorded (ISO 8601)." }),
  }),
  "X402PaymentList",
);

const COLUMNS = [
  "id",
  "created_at",
  "status",
  "route",
  "network",
  "payer",
  "pay_to",
  "asset",
  "amount",
  "transaction",
  "failure_reason",
] as const;

const serialise = (payment: X402Payment) => ({
  ...x402PaymentJson(payment),
  created_at: payment.createdAt.toISOString(),
});

/**
 * GET /v1/x402-payments and /v1/x402-payments.csv: every x402 payment for the catalogue's own API,
 * newest first, for a key with `x402:read` (the operator's: these are the catalogue's sales, not
 * an organisation's).
 */
export function x402PaymentsRouter(db: Database): Router {
  const router = apiRouter();
  router.get("/v1/x402-payments", async (req, res) => {
    const paging = parseInput(x402PaymentListQuery, req.query, "query");
    const { items, total } = await getX402Payments(db, paging);
    res.json({ items: items.map(serialise), has_more: paging.offset + items.length < total, total });
  });
  router.get("/v1/x402-payments.csv", async (req, res) => {
    const paging = parseInput(x402PaymentCsvQuery, req.query, "query");
    const { items } = await getX402Payments(db, paging);
    const rows = items.map((payment) => {
      const row = serialise(payment);
      return COLUMNS.map((column) => row[column] ?? "");
    });
    res
      .status(200)
      .set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="x402-payments.csv"',
        "Cache-Control": "no-store",
      })
      .send(stringify([[...COLUMNS], ...rows], { escape_formulas: true, record_delimiter: "windows" }));
  });
  return router;
}
