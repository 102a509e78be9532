import { queryRows } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import {
  announceInvoicePaid,
  announceSubscription,
  type MovedSubscription,
  type PaidInvoice,
} from "./billing-events";

/**
 * Every move of an invoice's and a subscription's status, in one place.
 *
 *   invoice:      open → paid (its payment order was paid) | void (its order expired or was canceled)
 *   subscription: incomplete → active (first invoice paid) | canceled (first invoice void)
 *                 active → past_due (a renewal invoice unpaid at its due time)
 *                 past_due → active (that invoice paid) | canceled (that invoice void)
 *                 active → canceled (cancel_at_period_end, at the period end)
 *
 * Each move is one `UPDATE … WHERE status = …` in the caller's transaction (the one that moved the
 * payment order, or the renewal job's), so of two racing moves exactly one finds the row still in
 * its state; the other changes nothing. Each moved subscription re-derives its organisation's
 * plan (live environment only) and announces `subscription.updated` in the same transaction.
 */

/** The free plan every organisation is on when no live subscription is active. */
export const FREE_PLAN_ID = "default";

const MOVED = Prisma.sql`s.id, s.organisation_id, s.environment::text AS environment, s.merchant_user_id, s.plan_id,
  s.status::text AS status, s.current_period_end, s.cancel_at_period_end, s.pending_plan_id, s.pending_plan_change_at,
  old.plan_id AS previous_plan_id, old.status::text AS previous_status`;

/**
 * One conditional move: `set` is applied to the subscriptions matched by `where` (which must name
 * the states it moves from); the rows as they were are read under the same row locks.
 */
export async function moveSubscriptions(
  tx: Transaction,
  where: Prisma.Sql,
  set: Prisma.Sql,
  reason: string,
): Promise<MovedSubscription[]> {
  const moved = await queryRows<MovedSubscription>(
    tx,
    Prisma.sql`WITH old AS (SELECT id, plan_id, status FROM subscriptions s WHERE ${where} ORDER BY id FOR UPDATE)
               UPDATE subscriptions s SET ${set}, updated_at = now()
               FROM old WHERE s.id = old.id AND ${where}
               RETURNING ${MOVED}`,
  );
  for (const subscription of moved) {
    await syncOrganisationPlan(tx, subscription);
    await announceSubscription(tx, subscription, reason);
  }
  return moved;
}

/**
 * How a subscription reaches the limits the accounts layer enforces: a live subscription that is
 * active puts its organisation on its plan (a key's limit is its organisation's plan's; the
 * update notifies every API process to drop its cached keys, see accounts/key-cache.ts); one that
 * is past_due or canceled puts it back on the free plan. Test-environment subscriptions change no
 * limits.
 */
async function syncOrganisationPlan(tx: Transaction, subscription: MovedSubscription): Promise<void> {
  if (subscription.environment !== "live" || subscription.status === "incomplete") return;
  const plan = subscription.status === "active" ? subscription.plan_id : FREE_PLAN_ID;
  await queryRows(
    tx,
    Prisma.sql`UPDATE organisations SET plan_id = ${plan}, updated_at = now()
               WHERE id = ${subscription.organisation_id}::uuid AND plan_id <> ${plan}`,
  );
}

const byId = (id: string) => Prisma.sql`s.id = ${id}::uuid`;

/**
 * open → paid for the invoice of a payment order that was just paid (same transaction), then what
 * the payment buys: the first invoice activates the subscription (its period starts now), an
 * upgrade puts it on the invoice's plan, a renewal brings a past_due subscription back.
 */
export async function settleInvoiceOfOrder(tx: Transaction, orderId: string): Promise<void> {
  const [invoice] = await queryRows<PaidInvoice>(
    tx,
    Prisma.sql`UPDATE invoices SET status = 'paid', paid_at = now(), updated_at = now()
               WHERE payment_order_id = ${orderId}::uuid AND status = 'open'
               RETURNING id, subscription_id, organisation_id, environment::text AS environment, merchant_user_id,
                         kind::text AS kind, amount_units, payment_order_id, target_plan_id, paid_at`,
  );
  if (!invoice) return;
  await announceInvoicePaid(tx, invoice);
  const subscription = byId(invoice.subscription_id);
  if (invoice.kind === "first") {
    await moveSubscriptions(
      tx,
      Prisma.sql`${subscription} AND s.status = 'incomplete'`,
      Prisma.sql`status = 'active', plan_id = ${invoice.target_plan_id}, current_period_start = now(),
                 current_period_end = now() + make_interval(days => (SELECT period_days FROM plans WHERE id = ${invoice.target_plan_id}))`,
      "activated",
    );
  } else if (invoice.kind === "upgrade") {
    await moveSubscriptions(
      tx,
      Prisma.sql`${subscription} AND s.status IN ('active', 'past_due')`,
      Prisma.sql`plan_id = ${invoice.target_plan_id}, pending_plan_id = NULL, pending_plan_change_at = NULL`,
      "upgraded",
    );
  } else {
    await moveSubscriptions(
      tx,
      Prisma.sql`${subscription} AND s.status = 'past_due'`,
      Prisma.sql`status = 'active'`,
      "renewal_paid",
    );
  }
}

/**
 * open → void for the invoices of orders that just expired or were canceled (same transaction).
 * An unpaid first invoice ends the subscription before it began; an unpaid renewal ends it; an
 * unpaid upgrade changes nothing (the plan stays).
 */
export async function voidInvoicesOfOrders(tx: Transaction, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const voided = await queryRows<{ subscription_id: string; kind: string }>(
    tx,
    Prisma.sql`UPDATE invoices SET status = 'void', voided_at = now(), updated_at = now()
               WHERE payment_order_id = ANY(${orderIds}::uuid[]) AND status = 'open'
               RETURNING subscription_id, kind::text AS kind`,
  );
  const ending = (kind: string) => voided.filter((v) => v.kind === kind).map((v) => v.subscription_id);
  const canceled = Prisma.sql`status = 'canceled', canceled_at = now()`;
  const first = ending("first");
  if (first.length > 0) {
    await moveSubscriptions(
      tx,
      Prisma.sql`s.id = ANY(${first}::uuid[]) AND s.status = 'incomplete'`,
      canceled,
      "first_invoice_unpaid",
    );
  }
  const renewal = ending("renewal");
  if (renewal.length > 0) {
    await moveSubscriptions(
      tx,
      Prisma.sql`s.id = ANY(${renewal}::uuid[]) AND s.status IN ('active', 'past_due')`,
      canceled,
      "renewal_unpaid",
    );
  }
}
