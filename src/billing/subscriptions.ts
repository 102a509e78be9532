import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../accounts/api-keys";
import { queryRows } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import { cancelOrder } from "./payment-order-transitions";
import { createPaymentOrder, SETTLEMENT_ASSET } from "./payment-orders";
import { findPlan, type Plan } from "./plans";
import { proratedUpgradeUnits } from "./proration";
import type { SettlementChain } from "./settlement-chains";
import {
  getSubscription,
  type InvoiceJson,
  type InvoiceRow,
  invoiceJson,
  ownedBy,
  SELECT_SUBSCRIPTION,
  type SubscriptionJson,
  type SubscriptionRow,
} from "./subscription-reads";
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
