import type { KeyOwner } from "../accounts/api-keys";
import { queryRows, type SqlRunner } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { SETTLEMENT_ASSET } from "./payment-orders";
import { formatUsdcUnits } from "./usdc-amount";

/**
 * Subscriptions and invoices as the merchant API shows them, and the reads of an owner's: one
 * subscription, a page of them, the portal's invoices. The rules that change them are in
 * subscriptions.ts.
 */

export interface SubscriptionRow {
  id: string;
  merchant_user_id: string;
  plan_id: string;
  status: string;
  current_period_start: Date;
  current_period_end: Date;
  cancel_at_period_end: boolean;
  pending_plan_id: string | null;
  pending_plan_change_at: Date | null;
  trial_ends_at: Date | null;
  canceled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface InvoiceRow {
  id: string;
  subscription_id: string;
  merchant_user_id: string;
  kind: string;
  period_start: Date;
  period_end: Date;
  amount_units: string;
  status: string;
  payment_order_id: string;
  target_plan_id: string;
  due_at: Date;
  paid_at: Date | null;
  voided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/** The merchant API's Subscription, its fields exactly. */
export function subscriptionJson(row: SubscriptionRow) {
  return {
    id: row.id,
    merchant_user_id: row.merchant_user_id,
    plan_id: row.plan_id,
    status: row.status,
    current_period_start: iso(row.current_period_start),
    current_period_end: iso(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    pending_plan_id: row.pending_plan_id,
    pending_plan_change_at: iso(row.pending_plan_change_at),
    trial_ends_at: iso(row.trial_ends_at),
    canceled_at: iso(row.canceled_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The merchant API's Invoice, its fields exactly, plus when it was voided. */
export function invoiceJson(row: InvoiceRow) {
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    merchant_user_id: row.merchant_user_id,
    kind: row.kind,
    period_start: iso(row.period_start),
    period_end: iso(row.period_end),
    amount: formatUsdcUnits(BigInt(row.amount_units)),
    asset: SETTLEMENT_ASSET,
    status: row.status,
    payment_order_id: row.payment_order_id,
    target_plan_id: row.target_plan_id,
    due_at: iso(row.due_at),
    paid_at: iso(row.paid_at),
    voided_at: iso(row.voided_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export type SubscriptionJson = ReturnType<typeof subscriptionJson>;
export type InvoiceJson = ReturnType<typeof invoiceJson>;

export const SELECT_SUBSCRIPTION = Prisma.sql`
  SELECT id, merchant_user_id, plan_id, status::text AS status, current_period_start, current_period_end,
         cancel_at_period_end, pending_plan_id, pending_plan_change_at, trial_ends_at, canceled_at, created_at, updated_at
  FROM subscriptions`;

const SELECT_INVOICE = Prisma.sql`
  SELECT id, subscription_id, merchant_user_id, kind::text AS kind, period_start, period_end, amount_units,
         status::text AS status, payment_order_id, target_plan_id, due_at, paid_at, voided_at, created_at, updated_at
  FROM invoices`;

export function ownedBy(owner: KeyOwner): Prisma.Sql {
  return Prisma.sql`organisation_id = ${owner.organisationId}::uuid AND environment = ${owner.environment}::environment`;
}

export async function getSubscription(
  pool: SqlRunner,
  owner: KeyOwner,
  id: string,
): Promise<SubscriptionJson | null> {
  const [row] = await queryRows<SubscriptionRow>(
    pool,
    Prisma.sql`${SELECT_SUBSCRIPTION} WHERE id = ${id}::uuid AND ${ownedBy(owner)}`,
  );
  return row ? subscriptionJson(row) : null;
}

/** Most recent first; one row beyond the page tells whether there are more. */
export async function listSubscriptions(
  pool: SqlRunner,
  owner: KeyOwner,
  page: { offset: number; limit: number; status?: string; merchant_user_id?: string },
): Promise<{ items: SubscriptionJson[]; has_more: boolean }> {
  const status = page.status ? Prisma.sql`AND status = ${page.status}::subscription_status` : Prisma.empty;
  const user = page.merchant_user_id
    ? Prisma.sql`AND merchant_user_id = ${page.merchant_user_id}`
    : Prisma.empty;
  const rows = await queryRows<SubscriptionRow>(
    pool,
    Prisma.sql`${SELECT_SUBSCRIPTION} WHERE ${ownedBy(owner)} ${status} ${user}
               ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1} OFFSET ${page.offset}`,
  );
  return { items: rows.slice(0, page.limit).map(subscriptionJson), has_more: rows.length > page.limit };
}

/** The portal's invoices, most recent first, at most `limit`. */
export async function listInvoices(
  pool: SqlRunner,
  owner: KeyOwner,
  filter: { subscription_id?: string; status?: string; limit: number },
): Promise<InvoiceJson[]> {
  const subscription = filter.subscription_id
    ? Prisma.sql`AND subscription_id = ${filter.subscription_id}::uuid`
    : Prisma.empty;
  const status = filter.status ? Prisma.sql`AND status = ${filter.status}::invoice_status` : Prisma.empty;
  const rows = await queryRows<InvoiceRow>(
    pool,
    Prisma.sql`${SELECT_INVOICE} WHERE ${ownedBy(owner)} ${subscription} ${status}
               ORDER BY created_at DESC, id DESC LIMIT ${filter.limit}`,
  );
  return rows.map(invoiceJson);
}
