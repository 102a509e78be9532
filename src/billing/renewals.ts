import type { Database } from "../db/prisma-client";
import { queryRows } from "../db/read-pool";
import { inTransaction, type Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import type { Logger } from "../logging/logger";
import { startRepeating } from "../scheduling/locked-loop";
import { moveSubscriptions } from "./subscription-transitions";
import { type BillingSettings, issueInvoice } from "./subscriptions";

export interface RenewalOutcome {
  canceled: number;
  renewed: number;
  pastDue: number;
}

/**
 * The renewal job, as of `at`, in the caller's transaction:
 * (a subscription with an open upgrade invoice waits until it is paid or void)
 * 1. an active subscription marked cancel_at_period_end whose period has ended is canceled;
 * 2. every other active subscription whose period has ended starts the next one: a scheduled plan
 *    change (pending_plan_id) takes effect first, then a renewal invoice for the new period at that
 *    plan's price is issued, due `graceMs` after the period starts (the subscription stays active
 *    meanwhile) and payable for another `graceMs` after that;
 * 3. an active subscription whose renewal invoice is still open at its due time becomes past_due
 *    (its organisation is back on the free plan); paying the invoice makes it active again, and
 *    when its payment order expires unpaid the subscription is canceled
 *    (subscription-transitions.ts).
 * Every step is a conditional update, so running it twice, or beside a settling payment, is safe.
 */
export async function runRenewals(
  tx: Transaction,
  settings: BillingSettings,
  at: Date,
): Promise<RenewalOutcome> {
  // A subscription whose upgrade invoice is still open waits: its payment may be mined before the
  // period end and credited only after the confirmations, and the next period is priced at the
  // plan it settles on. The upgrade's order expires at the period end at the latest, so the wait
  // ends once the chain has been read past it.
  const ended = Prisma.sql`s.status = 'active' AND s.current_period_end <= ${at}
    AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = s.id AND i.kind = 'upgrade' AND i.status = 'open')`;
  const canceled = await moveSubscriptions(
    tx,
    Prisma.sql`${ended} AND s.cancel_at_period_end`,
    Prisma.sql`status = 'canceled', canceled_at = ${at}`,
    "canceled_at_period_end",
  );
  const nextPlan = Prisma.sql`coalesce(s.pending_plan_id, s.plan_id)`;
  const renewed = await moveSubscriptions(
    tx,
    Prisma.sql`${ended} AND NOT s.cancel_at_period_end`,
    Prisma.sql`plan_id = ${nextPlan}, pending_plan_id = NULL, pending_plan_change_at = NULL,
               current_period_start = s.current_period_end,
               current_period_end = s.current_period_end
                 + make_interval(days => (SELECT period_days FROM plans WHERE id = ${nextPlan}))`,
    "renewed",
  );
  for (const subscription of renewed) {
    const [plan] = await queryRows<{ price_units: string; current_period_start: Date }>(
      tx,
      Prisma.sql`SELECT p.price_units, s.current_period_start FROM subscriptions s JOIN plans p ON p.id = s.plan_id
                 WHERE s.id = ${subscription.id}::uuid`,
    );
    if (!plan) continue;
    const periodStart = new Date(plan.current_period_start);
    const dueAt = new Date(periodStart.getTime() + settings.graceMs);
    await issueInvoice(
      tx,
      settings,
      { organisationId: subscription.organisation_id, environment: subscription.environment },
      {
        subscriptionId: subscription.id,
        merchantUserId: subscription.merchant_user_id,
        kind: "renewal",
        periodStart,
        periodEnd: new Date(subscription.current_period_end),
        amountUnits: BigInt(plan.price_units),
        targetPlanId: subscription.plan_id,
        dueAt,
        // A job that ran late still leaves the payer the whole grace time.
        payableUntil: new Date(Math.max(dueAt.getTime(), at.getTime()) + settings.graceMs),
      },
    );
  }
  const pastDue = await moveSubscriptions(
    tx,
    Prisma.sql`s.status = 'active' AND EXISTS (
                 SELECT 1 FROM invoices i WHERE i.subscription_id = s.id AND i.kind = 'renewal'
                   AND i.status = 'open' AND i.due_at <= ${at})`,
    Prisma.sql`status = 'past_due'`,
    "past_due",
  );
  return { canceled: canceled.length, renewed: renewed.length, pastDue: pastDue.length };
}

/** A round renews every due subscription in one transaction (no batching yet): room for many. */
const ROUND_TIMEOUT_MS = 120_000;

/** The advisory-lock key of the renewal job: one process runs a round at a time. */
const RENEWAL_LOCK = "x402-catalogue:renewals";

/** One round in one transaction, if no other process is running one (null: another was). */
export function renewOnce(
  db: Database,
  settings: BillingSettings,
  at = new Date(),
): Promise<RenewalOutcome | null> {
  return inTransaction(
    db,
    async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtext(${RENEWAL_LOCK})) AS locked`,
      );
      return lock?.locked ? runRenewals(tx, settings, at) : null;
    },
    { timeoutMs: ROUND_TIMEOUT_MS },
  );
}

export interface RunningRenewals {
  stop(): Promise<void>;
}

/** `npm start`: a renewal round every `intervalMs` (RENEWAL_POLL_SECONDS); rounds never overlap. */
export function startRenewals(options: {
  db: Database;
  settings: BillingSettings;
  logger: Logger;
  intervalMs: number;
}): RunningRenewals {
  return startRepeating(
    () =>
      renewOnce(options.db, options.settings)
        .then((outcome) => {
          if (outcome && outcome.canceled + outcome.renewed + outcome.pastDue > 0) {
            options.logger.info(outcome, "subscription renewals");
          }
        })
        .catch((error: unknown) => options.logger.warn({ err: error }, "renewal round failed; retrying")),
    options.intervalMs,
  );
}
