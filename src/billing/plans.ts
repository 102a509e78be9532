import type { Database } from "../db/prisma-client";
import { queryRows, type SqlRunner } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { formatUsdcUnits } from "./usdc-amount";

export interface Plan {
  id: string;
  name: string;
  priceUnits: bigint;
  periodDays: number;
  requestsPerMinute: number;
  csvRowsPerDay: number;
  webhookEndpoints: number;
}

/** GET /v1/plans: the price per period as a 6-decimal USDC string, the limits as numbers. */
export function planJson(plan: Plan) {
  return {
    id: plan.id,
    name: plan.name,
    price: formatUsdcUnits(plan.priceUnits),
    asset: "USDC",
    period_days: plan.periodDays,
    requests_per_minute: plan.requestsPerMinute,
    csv_rows_per_day: plan.csvRowsPerDay,
    webhook_endpoints: plan.webhookEndpoints,
  };
}

const PLAN_FIELDS = {
  id: true,
  name: true,
  priceUnits: true,
  periodDays: true,
  requestsPerMinute: true,
  csvRowsPerDay: true,
  webhookEndpoints: true,
} as const;

/** Cheapest first (the free plan leads). */
export function listPlans(db: Database): Promise<Plan[]> {
  return db.plan.findMany({ select: PLAN_FIELDS, orderBy: [{ priceUnits: "asc" }, { id: "asc" }] });
}

/** One plan as a billing transaction sees it (billing writes go through the pool, not Prisma). */
export async function findPlan(tx: SqlRunner, id: string): Promise<Plan | null> {
  const [row] = await queryRows<{
    id: string;
    name: string;
    price_units: string;
    period_days: number;
    requests_per_minute: number;
    csv_rows_per_day: number;
    webhook_endpoints: number;
  }>(
    tx,
    Prisma.sql`SELECT id, name, price_units, period_days, requests_per_minute, csv_rows_per_day, webhook_endpoints
               FROM plans WHERE id = ${id}`,
  );
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    priceUnits: BigInt(row.price_units),
    periodDays: row.period_days,
    requestsPerMinute: row.requests_per_minute,
    csvRowsPerDay: row.csv_rows_per_day,
    webhookEndpoints: row.webhook_endpoints,
  };
}
