import { z } from "zod";
import { enumParam, integerParam, textParam } from "./common";

export const SUBSCRIPTION_STATUSES = ["incomplete", "active", "past_due", "canceled"] as const;
export const INVOICE_STATUSES = ["open", "paid", "void"] as const;
export const INVOICE_KINDS = ["first", "upgrade", "renewal"] as const;
/** The portal's invoice list is not paged (the merchant API answers an array): the newest this many. */
export const MAX_LISTED_INVOICES = 500;

const planId = z
  .string({ error: "must be a plan id (text, see GET /v1/plans)" })
  .trim()
  .min(1, "must be a plan id (see GET /v1/plans)")
  .max(64, "must be at most 64 characters")
  .meta({ description: "A plan id of GET /v1/plans.", example: "starter" });

export const createSubscriptionBody = z.strictObject({
  merchant_user_id: z
    .string({ error: "must be your own reference of the subscriber (text)" })
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .refine((text) => !text.includes("\u0000"), "must not contain NUL characters")
    .meta({ description: "Your own reference of the subscriber.", example: "acme-admin" }),
  plan_id: planId,
});

export const changePlanBody = z.strictObject({ plan_id: planId });

export const cancelSubscriptionBody = z.strictObject({
  at_period_end: z
    .boolean({ error: "must be true (end at the period end, the default) or false (end now)" })
    .default(true),
});

export const subscriptionIdParams = z.strictObject({
  id: z.guid({ error: "must be a subscription id (a UUID)" }),
});

export const listSubscriptionsQuery = z.strictObject({
  offset: integerParam(0, 1_000_000).default(0),
  limit: integerParam(1, 200).default(50),
  status: enumParam(SUBSCRIPTION_STATUSES).optional(),
  merchant_user_id: textParam(200).optional(),
});

export const listInvoicesQuery = z.strictObject({
  subscription_id: z.guid({ error: "must be a subscription id (a UUID)" }).optional(),
  status: enumParam(INVOICE_STATUSES).optional(),
});

const timestamp = z.string().meta({ format: "date-time" });
const nullableTimestamp = (description: string) => timestamp.nullable().meta({ description });

export const planSchema = z
  .strictObject({
    id: z.string().meta({ description: "The plan's id (plan_id of a subscription).", example: "starter" }),
    name: z.string().meta({ description: "Its name for people.", example: "Starter" }),
    price: z.string().meta({ description: "Price per period in USDC, 6 decimals.", example: "19.000000" }),
    asset: z.string().meta({ description: "Always USDC.", example: "USDC" }),
    period_days: z.number().int().meta({ description: "Length of a billing period in days.", example: 30 }),
    requests_per_minute: z
      .number()
      .int()
      .meta({ description: "Rate limit of each key of the organisation." }),
    csv_rows_per_day: z.number().int().meta({ description: "CSV export rows per day (not enforced yet)." }),
    webhook_endpoints: z.number().int().meta({ description: "Webhook endpoints (not enforced yet)." }),
  })
  .meta({ id: "Plan" });

export const planListSchema = z.array(planSchema).meta({ id: "PlanList", description: "Cheapest first." });

export const subscriptionSchema = z
  .strictObject({
    id: z.string().meta({ description: "The subscription's id (a UUID)." }),
    merchant_user_id: z.string().meta({ description: "Your reference of the subscriber, as sent." }),
    plan_id: z.string().meta({ description: "The plan in force (changes only after settlement)." }),
    status: z
      .enum(SUBSCRIPTION_STATUSES)
      .meta({ description: "incomplete → active → past_due → canceled (see docs/billing.md)." }),
    current_period_start: timestamp.meta({ description: "Start of the period paid for (or to be paid)." }),
    current_period_end: timestamp.meta({ description: "End of that period: the next renewal." }),
    cancel_at_period_end: z.boolean().meta({ description: "Canceled, not renewed, at the period end." }),
    pending_plan_id: z.string().nullable().meta({ description: "A downgrade scheduled for the period end." }),
    pending_plan_change_at: nullableTimestamp("When pending_plan_id takes effect (the period end)."),
    trial_ends_at: nullableTimestamp("Always null: plans have no trial."),
    canceled_at: nullableTimestamp("When it was canceled."),
    created_at: timestamp.meta({ description: "When it was created." }),
    updated_at: timestamp.meta({ description: "Its last change." }),
  })
  .meta({ id: "Subscription" });

export const invoiceSchema = z
  .strictObject({
    id: z.string().meta({ description: "The invoice's id (a UUID)." }),
    subscription_id: z.string().meta({ description: "The subscription it bills." }),
    merchant_user_id: z.string().meta({ description: "The subscription's merchant_user_id." }),
    kind: z
      .enum(INVOICE_KINDS)
      .meta({ description: "first (starts it), upgrade (prorated difference), renewal (next period)." }),
    period_start: timestamp.meta({ description: "Start of what it pays for (an upgrade: the change)." }),
    period_end: timestamp.meta({ description: "End of what it pays for." }),
    amount: z.string().meta({ description: "USDC, 6 decimals.", example: "12.500000" }),
    asset: z.string().meta({ description: "Always USDC.", example: "USDC" }),
    status: z.enum(INVOICE_STATUSES).meta({ description: "open → paid | void." }),
    payment_order_id: z
      .string()
      .meta({ description: "The payment order that pays it (GET /v1/payment-orders/{id})." }),
    target_plan_id: z.string().meta({ description: "The plan the subscription is on once it is paid." }),
    due_at: timestamp.meta({
      description: "When it should be paid (see the grace rules in docs/billing.md).",
    }),
    paid_at: nullableTimestamp("When its payment order was paid."),
    voided_at: nullableTimestamp("When its payment order expired or was canceled."),
    created_at: timestamp.meta({ description: "When it was issued." }),
    updated_at: timestamp.meta({ description: "Its last change." }),
  })
  .meta({ id: "Invoice" });

export const subscriptionListSchema = z
  .strictObject({
    items: z.array(subscriptionSchema).meta({ description: "Most recent first." }),
    has_more: z.boolean().meta({ description: "Whether more subscriptions follow this page." }),
  })
  .meta({ id: "SubscriptionList" });

export const createdSubscriptionSchema = z
  .strictObject({ subscription: subscriptionSchema, invoice: invoiceSchema })
  .meta({ id: "CreatedSubscription" });

export const planChangeSchema = z
  .strictObject({
    subscription: subscriptionSchema,
    invoice: invoiceSchema.nullable().meta({ description: "The upgrade's invoice; null otherwise." }),
    pending: z.boolean().meta({ description: "True when the change is scheduled for the period end." }),
  })
  .meta({ id: "PlanChange" });

export const invoiceListSchema = z
  .array(invoiceSchema)
  .meta({ id: "InvoiceList", description: `Most recent first, at most ${MAX_LISTED_INVOICES}.` });
