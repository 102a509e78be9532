import type { Environment } from "../accounts/scopes";
import { queryRows } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { emitEvents, type NewEvent } from "../events/emit";
import { Prisma } from "../generated/prisma/client";
import type { UnappliedTransferJson } from "./unapplied-transfers";
import { formatUsdcUnits } from "./usdc-amount";

/**
 * THE place billing events leave from. Each function is called inside the transaction that made
 * the change, with that transaction, and reads the changed rows as the transaction sees them: the
 * outbox rows (and a delivery per subscribed webhook endpoint of the owner) commit or roll back
 * with the change. Every billing kind is owned by the object's organisation and environment.
 */

type OrderEventType =
  | "payment_order.created"
  | "payment_order.paid"
  | "payment_order.expired"
  | "payment_order.canceled";

interface Owned {
  organisation_id: string;
  environment: Environment;
}

const ownerOf = (row: Owned) => ({ organisationId: row.organisation_id, environment: row.environment });
const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/** Each order as its events carry it, with its owner. */
async function orderSnapshots(tx: Transaction, orderIds: readonly string[]) {
  const rows = await queryRows<
    Owned & {
      id: string;
      merchant_order_id: string;
      amount_units: string;
      received_units: string;
      status: string;
      metadata: string | null;
    }
  >(
    tx,
    Prisma.sql`SELECT id, organisation_id, environment::text AS environment, merchant_order_id, amount_units,
                      received_units, status::text AS status, metadata
               FROM payment_orders WHERE id = ANY(${orderIds}::uuid[]) ORDER BY created_at, id`,
  );
  return rows.map((row) => ({
    owner: ownerOf(row),
    data: {
      payment_order: {
        id: row.id,
        merchant_order_id: row.merchant_order_id,
        amount: formatUsdcUnits(BigInt(row.amount_units)),
        received_amount: formatUsdcUnits(BigInt(row.received_units)),
        status: row.status,
      },
      metadata: row.metadata,
    },
  }));
}

export async function announceOrders(
  tx: Transaction,
  type: OrderEventType,
  orderIds: readonly string[],
): Promise<void> {
  if (orderIds.length === 0) return;
  const snapshots = await orderSnapshots(tx, orderIds);
  await emitEvents(
    tx,
    snapshots.map(({ owner, data }): NewEvent => ({ type, owner, data })),
  );
}

/** A transfer recorded against the order but not credited to it: the merchant's cue to refund. */
export async function announceUnappliedTransfer(
  tx: Transaction,
  orderId: string,
  transfer: UnappliedTransferJson,
): Promise<void> {
  const snapshots = await orderSnapshots(tx, [orderId]);
  await emitEvents(
    tx,
    snapshots.map(
      ({ owner, data }): NewEvent => ({
        type: "payment_order.unapplied_transfer",
        owner,
        data: { ...data, transfer },
      }),
    ),
  );
}

export interface PaidInvoice extends Owned {
  id: string;
  subscription_id: string;
  merchant_user_id: string;
  kind: string;
  amount_units: string;
  payment_order_id: string;
  target_plan_id: string;
  paid_at: Date;
}

export async function announceInvoicePaid(tx: Transaction, invoice: PaidInvoice): Promise<void> {
  await emitEvents(tx, [
    {
      type: "invoice.paid",
      owner: ownerOf(invoice),
      data: {
        invoice: {
          id: invoice.id,
          subscription_id: invoice.subscription_id,
          merchant_user_id: invoice.merchant_user_id,
          kind: invoice.kind,
          amount: formatUsdcUnits(BigInt(invoice.amount_units)),
          payment_order_id: invoice.payment_order_id,
          target_plan_id: invoice.target_plan_id,
          paid_at: new Date(invoice.paid_at).toISOString(),
        },
      },
    },
  ]);
}

export interface MovedSubscription extends Owned {
  id: string;
  merchant_user_id: string;
  plan_id: string;
  status: string;
  current_period_end: Date;
  cancel_at_period_end: boolean;
  pending_plan_id: string | null;
  pending_plan_change_at: Date | null;
  previous_plan_id: string;
  previous_status: string;
}

export async function announceSubscription(
  tx: Transaction,
  subscription: MovedSubscription,
  reason: string,
): Promise<void> {
  await emitEvents(tx, [
    {
      type: "subscription.updated",
      owner: ownerOf(subscription),
      data: {
        subscription: {
          id: subscription.id,
          merchant_user_id: subscription.merchant_user_id,
          plan_id: subscription.plan_id,
          status: subscription.status,
          current_period_end: new Date(subscription.current_period_end).toISOString(),
          cancel_at_period_end: subscription.cancel_at_period_end,
          pending_plan_id: subscription.pending_plan_id,
          pending_plan_change_at: iso(subscription.pending_plan_change_at),
        },
        previous: { plan_id: subscription.previous_plan_id, status: subscription.previous_status },
        reason,
      },
    },
  ]);
}
