import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../accounts/api-keys";
import { queryRows, type SqlRunner } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import { cancelOrder } from "./payment-order-transitions";
import { createPaymentOrder, SETTLEMENT_ASSET } from "./payment-orders";
import { findPlan, type Plan } from "./plans";
import { proratedUpgradeUnits } from "./proration";
import type { SettlementChain } from "./settlement-chains";
import { FREE_PLAN_ID, moveSubscriptions } from "./subscription-transitions";
import { formatUsdcUnits } from "./usdc-amount";

/** What subscriptions need besides the database: where invoices are paid, how long they may wait. */
export interface BillingSettings {
  /** Every configured chain: an invoice's payment order accepts USDC on each. */
  chains: ReadonlyMap<string, SettlementChain>;
  /** SUBSCRIPTION_GRACE_HOURS in ms: how long an invoice may stay unpaid (see renewals.ts). */
  graceMs: number;
}

/** A request the subscription rules refuse; nothing it did is kept (it is thrown inside the transaction). */
export class BillingRefusal extends Error {
  constructor(
    readonly reason: "not_found" | "conflict" | "unprocessable",
    message: string,
  ) {
    super(message);
    this.name = "BillingRefusal";
  }
}

interface SubscriptionRow {
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

interface InvoiceRow {
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

const SELECT_SUBSCRIPTION = Prisma.sql`
  SELECT id, merchant_user_id, plan_id, status::text AS status, current_period_start, current_period_end,
         cancel_at_period_end, pending_plan_id, pending_plan_change_at, trial_ends_at, canceled_at, created_at, updated_at
  FROM subscriptions`;

const SELECT_INVOICE = Prisma.sql`
  SELECT id, subscription_id, merchant_user_id, kind::text AS kind, period_start, period_end, amount_units,
         status::text AS status, payment_order_id, target_plan_id, due_at, paid_at, voided_at, created_at, updated_at
  FROM invoices`;

function ownedBy(owner: KeyOwner): Prisma.Sql {
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

export interface NewInvoice {
  subscriptionId: string;
  merchantUserId: string;
  kind: "first" | "upgrade" | "renewal";
  periodStart: Date;
  periodEnd: Date;
  amountUnits: bigint;
  targetPlanId: string;
  dueAt: Date;
  /** When its payment order expires (and the invoice is void): at dueAt, or later for renewals. */
  payableUntil: Date;
}

/** An open invoice and the payment order that pays it (USDC on every configured chain), in `tx`. */
export async function issueInvoice(
  tx: Transaction,
  settings: BillingSettings,
  owner: KeyOwner,
  invoice: NewInvoice,
): Promise<InvoiceJson> {
  if (settings.chains.size === 0) {
    throw new BillingRefusal("unprocessable", "No settlement chain is configured (SETTLEMENT_CHAINS)");
  }
  const id = randomUUID();
  const order = await createPaymentOrder(tx, owner, settings.chains, {
    merchantOrderId: `invoice:${id}`,
    requestedAmount: formatUsdcUnits(invoice.amountUnits),
    amountUnits: invoice.amountUnits,
    acceptedAssets: [...settings.chains.keys()].map((chain) => ({ chain, asset: SETTLEMENT_ASSET })),
    metadata: `subscription:${invoice.subscriptionId}`,
    expiresAt: invoice.payableUntil,
  });
  const [row] = await queryRows<InvoiceRow>(
    tx,
    Prisma.sql`INSERT INTO invoices (id, subscription_id, organisation_id, environment, merchant_user_id, kind,
                 period_start, period_end, amount_units, payment_order_id, target_plan_id, due_at, updated_at)
               VALUES (${id}::uuid, ${invoice.subscriptionId}::uuid, ${owner.organisationId}::uuid,
                 ${owner.environment}::environment, ${invoice.merchantUserId}, ${invoice.kind}::invoice_kind,
                 ${invoice.periodStart}, ${invoice.periodEnd}, ${invoice.amountUnits.toString()}::bigint,
                 ${order.id}::uuid, ${invoice.targetPlanId}, ${invoice.dueAt}, now())
               RETURNING id, subscription_id, merchant_user_id, kind::text AS kind, period_start, period_end,
                 amount_units, status::text AS status, payment_order_id, target_plan_id, due_at, paid_at,
                 voided_at, created_at, updated_at`,
  );
  if (!row) throw new Error(`invoice ${id} was not written`);
  return invoiceJson(row);
}

const DAY_MS = 86_400_000;

async function sellablePlan(tx: Transaction, planId: string): Promise<Plan> {
  const plan = await findPlan(tx, planId);
  if (!plan) throw new BillingRefusal("unprocessable", `plan_id: no plan "${planId}" (see GET /v1/plans)`);
  if (plan.priceUnits === 0n || plan.id === FREE_PLAN_ID) {
    throw new BillingRefusal("unprocessable", `plan_id: "${planId}" is free; it is not sold by subscription`);
  }
  return plan;
}

/**
 * A subscription starts `incomplete` with its first invoice (the plan's price for one period,
 * due within the grace time). One organisation and environment has at most one subscription
 * that is not canceled: its plan is the organisation's (see subscription-transitions.ts).
 */
export async function createSubscription(
  tx: Transaction,
  settings: BillingSettings,
  owner: KeyOwner,
  request: { merchantUserId: string; planId: string },
  at: Date,
): Promise<{ subscription: SubscriptionJson; invoice: InvoiceJson }> {
  const plan = await sellablePlan(tx, request.planId);
  // Creations for one owner take turns, so two cannot both find no open subscription.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`subscriptions:${owner.organisationId}:${owner.environment}`}))`;
  const [open] = await queryRows<{ id: string; status: string }>(
    tx,
    Prisma.sql`SELECT id, status::text AS status FROM subscriptions WHERE ${ownedBy(owner)} AND status <> 'canceled' LIMIT 1`,
  );
  if (open) {
    throw new BillingRefusal(
      "conflict",
      `This organisation and environment already has subscription ${open.id} (${open.status}); change its plan instead`,
    );
  }
  const id = randomUUID();
  const periodEnd = new Date(at.getTime() + plan.periodDays * DAY_MS);
  await queryRows(
    tx,
    Prisma.sql`INSERT INTO subscriptions (id, organisation_id, environment, merchant_user_id, plan_id,
                 current_period_start, current_period_end, updated_at)
               VALUES (${id}::uuid, ${owner.organisationId}::uuid, ${owner.environment}::environment,
                 ${request.merchantUserId}, ${plan.id}, ${at}, ${periodEnd}, now())`,
  );
  const dueAt = new Date(at.getTime() + settings.graceMs);
  const invoice = await issueInvoice(tx, settings, owner, {
    subscriptionId: id,
    merchantUserId: request.merchantUserId,
    kind: "first",
    periodStart: at,
    periodEnd,
    amountUnits: plan.priceUnits,
    targetPlanId: plan.id,
    dueAt,
    payableUntil: dueAt,
  });
  return { subscription: await mustGet(tx, owner, id), invoice };
}

/**
 * Requests that change one subscription (change-plan, cancel) take turns on it, so the second
 * sees the first's invoice and supersedes it. An advisory lock rather than the row lock: the row
 * is locked only after the superseded orders, the order settlement locks them in.
 */
async function takeTurn(tx: Transaction, id: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`subscription:${id}`}))`;
}

async function mustGet(tx: Transaction, owner: KeyOwner, id: string): Promise<SubscriptionJson> {
  const subscription = await getSubscription(tx, owner, id);
  if (!subscription) throw new Error(`subscription ${id} vanished inside its own transaction`);
  return subscription;
}

export interface PlanChange {
  subscription: SubscriptionJson;
  invoice: InvoiceJson | null;
  pending: boolean;
}

/**
 * change-plan, on an active subscription:
 * - a dearer plan (an upgrade): an invoice for the prorated difference (proration.ts) for the rest
 *   of the period; the plan changes only when its payment order is paid (`pending: false`: nothing
 *   is scheduled). When nothing is left to prorate, it is scheduled like a downgrade.
 * - a plan no dearer (a downgrade): scheduled for the period end (`pending_plan_id`,
 *   `pending_plan_change_at`, `pending: true`, no invoice); the renewal job applies it.
 * - the current plan: clears a scheduled change.
 * The latest request wins: an open upgrade invoice of the subscription is voided (its payment
 * order canceled) and a scheduled change is replaced.
 */
export async function changePlan(
  tx: Transaction,
  settings: BillingSettings,
  owner: KeyOwner,
  id: string,
  planId: string,
  at: Date,
): Promise<PlanChange> {
  await takeTurn(tx, id);
  if (!(await getSubscription(tx, owner, id))) {
    throw new BillingRefusal(
      "not_found",
      `No subscription with id ${id} in this organisation and environment`,
    );
  }
  // Orders before the subscription row, the order in which settlement locks them (no deadlock).
  const superseded = await queryRows<{ payment_order_id: string }>(
    tx,
    Prisma.sql`SELECT payment_order_id FROM invoices
               WHERE subscription_id = ${id}::uuid AND kind = 'upgrade' AND status = 'open'`,
  );
  for (const { payment_order_id } of superseded) await cancelOrder(tx, owner, payment_order_id);
  const [current] = await queryRows<SubscriptionRow>(
    tx,
    Prisma.sql`${SELECT_SUBSCRIPTION} WHERE id = ${id}::uuid FOR UPDATE`,
  );
  if (current?.status !== "active") {
    throw new BillingRefusal(
      "conflict",
      `Only an active subscription can change plan; this one is ${current?.status ?? "gone"}`,
    );
  }
  const target = await sellablePlan(tx, planId);
  const from = await findPlan(tx, current.plan_id);
  if (!from) throw new Error(`plan ${current.plan_id} of subscription ${id} is missing`);
  if (target.periodDays !== from.periodDays) {
    throw new BillingRefusal(
      "unprocessable",
      `plan_id: "${planId}" bills every ${target.periodDays} days, this subscription every ${from.periodDays}; only plans of the same period can be exchanged`,
    );
  }
  const where = Prisma.sql`s.id = ${id}::uuid AND s.status = 'active'`;
  const clearPending = async (reason: string) => {
    if (current.pending_plan_id !== null) {
      await moveSubscriptions(
        tx,
        where,
        Prisma.sql`pending_plan_id = NULL, pending_plan_change_at = NULL`,
        reason,
      );
    }
  };
  if (target.id === from.id) {
    await clearPending("plan_change_withdrawn");
    return { subscription: await mustGet(tx, owner, id), invoice: null, pending: false };
  }
  const periodEnd = new Date(current.current_period_end);
  const amountUnits = proratedUpgradeUnits({
    currentPriceUnits: from.priceUnits,
    targetPriceUnits: target.priceUnits,
    periodStart: new Date(current.current_period_start),
    periodEnd,
    at,
  });
  if (amountUnits > 0n) {
    await clearPending("plan_change_withdrawn");
    const dueAt = new Date(Math.min(at.getTime() + settings.graceMs, periodEnd.getTime()));
    const invoice = await issueInvoice(tx, settings, owner, {
      subscriptionId: id,
      merchantUserId: current.merchant_user_id,
      kind: "upgrade",
      periodStart: at,
      periodEnd,
      amountUnits,
      targetPlanId: target.id,
      dueAt,
      payableUntil: dueAt,
    });
    return { subscription: await mustGet(tx, owner, id), invoice, pending: false };
  }
  await moveSubscriptions(
    tx,
    where,
    Prisma.sql`pending_plan_id = ${target.id}, pending_plan_change_at = s.current_period_end`,
    "plan_change_scheduled",
  );
  return { subscription: await mustGet(tx, owner, id), invoice: null, pending: true };
}

/**
 * cancel: at the period end (default) sets cancel_at_period_end on an active or past_due
 * subscription (the renewal job cancels it then; a later change-plan does not undo it); at once,
 * cancels an incomplete, active or past_due one now, voiding its open invoices (their payment
 * orders are canceled) and putting a live organisation back on the free plan.
 */
export async function cancelSubscription(
  tx: Transaction,
  owner: KeyOwner,
  id: string,
  atPeriodEnd: boolean,
): Promise<SubscriptionJson> {
  await takeTurn(tx, id);
  const found = await getSubscription(tx, owner, id);
  if (!found) {
    throw new BillingRefusal(
      "not_found",
      `No subscription with id ${id} in this organisation and environment`,
    );
  }
  if (found.status === "canceled")
    throw new BillingRefusal("conflict", "This subscription is already canceled");
  const where = Prisma.sql`s.id = ${id}::uuid`;
  if (atPeriodEnd) {
    const moved = await moveSubscriptions(
      tx,
      Prisma.sql`${where} AND s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end`,
      Prisma.sql`cancel_at_period_end = true`,
      "cancel_scheduled",
    );
    if (moved.length === 0 && !found.cancel_at_period_end) {
      throw new BillingRefusal(
        "conflict",
        `Only an active or past_due subscription can end at its period end; this one is ${found.status}`,
      );
    }
    return mustGet(tx, owner, id);
  }
  // Orders before the subscription row, as settlement locks them.
  const open = await queryRows<{ payment_order_id: string }>(
    tx,
    Prisma.sql`SELECT payment_order_id FROM invoices WHERE subscription_id = ${id}::uuid AND status = 'open'`,
  );
  for (const { payment_order_id } of open) await cancelOrder(tx, owner, payment_order_id);
  await moveSubscriptions(
    tx,
    Prisma.sql`${where} AND s.status IN ('incomplete', 'active', 'past_due')`,
    Prisma.sql`status = 'canceled', canceled_at = now()`,
    "canceled",
  );
  // An incomplete one is already canceled by voiding its first invoice.
  return mustGet(tx, owner, id);
}
