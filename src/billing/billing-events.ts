import type pg from "pg";
import type { Environment } from "../accounts/scopes";

/**
 * THE place billing events leave from. Every state change that the merchant API announces calls
 * `emit` inside the transaction that made the change, so an outbox row written by the events
 * issue (#18) commits or rolls back with it. Subscriptions and invoices (`invoice.paid`,
 * `subscription.updated`) will emit here too.
 */
export type BillingEventType =
  | "payment_order.created"
  | "payment_order.paid"
  | "payment_order.expired"
  | "payment_order.canceled";

export interface BillingEvent {
  type: BillingEventType;
  organisationId: string;
  environment: Environment;
  /** The id of the object the event is about (a payment order's id). */
  objectId: string;
}

export interface BillingEventSink {
  emit(transaction: pg.PoolClient, event: BillingEvent): Promise<void>;
}

/** Until webhooks (#18) are merged nothing subscribes; that issue supplies the real sink. */
export const NO_BILLING_EVENT_SINK: BillingEventSink = { emit: async () => undefined };
