import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { errorBodySchema, noQuery } from "../schemas/common";
import {
  createPaymentOrderBody,
  listPaymentOrdersQuery,
  paymentOrderIdParams,
  paymentOrderListSchema,
  paymentOrderSchema,
} from "../schemas/payment-orders";
import {
  cancelSubscriptionBody,
  changePlanBody,
  createdSubscriptionSchema,
  createSubscriptionBody,
  invoiceListSchema,
  listInvoicesQuery,
  listSubscriptionsQuery,
  planChangeSchema,
  planListSchema,
  subscriptionIdParams,
  subscriptionListSchema,
  subscriptionSchema,
} from "../schemas/subscriptions";

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: errorBodySchema } },
});
const order = (description: string) => ({
  description,
  content: { "application/json": { schema: paymentOrderSchema } },
});
const invalid = { 400: error("A parameter or the body is invalid; the message names it.") };
const unknown = { 404: error("No order with this id in this organisation and environment.") };
const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});
const noSubscription = { 404: error("No subscription with this id in this organisation and environment.") };

/** The payment order operations (src/http/routes/payment-orders.ts), then plans and subscriptions (subscriptions.ts). */
export function billingOperations(): RouteConfig[] {
  return [
    ...paymentOrderOperations(),
    {
      method: "get",
      path: "/v1/plans",
      operationId: "listPlans",
      summary: "List the plans for sale",
      description:
        "Public. Each plan's price per period in USDC and the limits it buys for the subscribing organisation; the free plan (default) is where every organisation starts.",
      request: { query: noQuery },
      responses: { 200: json("Every plan, cheapest first.", planListSchema), ...invalid },
    },
    {
      method: "post",
      path: "/v1/merchant/subscriptions",
      operationId: "createSubscription",
      summary: "Subscribe to a plan",
      description:
        "Starts incomplete with its first invoice (the plan's price for one period) and that invoice's payment order; active once the order is paid. One subscription that is not canceled per organisation and environment.",
      request: {
        query: noQuery,
        body: { content: { "application/json": { schema: createSubscriptionBody } } },
      },
      responses: {
        201: json("The subscription and its first invoice.", createdSubscriptionSchema),
        ...invalid,
        409: error("This organisation and environment already has a subscription that is not canceled."),
        422: error("No such plan, a free plan, or no settlement chain is configured."),
      },
    },
    {
      method: "get",
      path: "/v1/merchant/subscriptions",
      operationId: "listSubscriptions",
      summary: "List the subscriptions of this organisation and environment",
      description: "Most recent first.",
      request: { query: listSubscriptionsQuery },
      responses: { 200: json("A page of subscriptions.", subscriptionListSchema), ...invalid },
    },
    {
      method: "get",
      path: "/v1/merchant/subscriptions/{id}",
      operationId: "getSubscription",
      summary: "Get a subscription",
      request: { params: subscriptionIdParams, query: noQuery },
      responses: { 200: json("The subscription.", subscriptionSchema), ...invalid, ...noSubscription },
    },
    {
      method: "post",
      path: "/v1/merchant/subscriptions/{id}/change-plan",
      operationId: "changeSubscriptionPlan",
      summary: "Change a subscription's plan",
      description:
        "A dearer plan: an invoice for the prorated difference (pending false), applied only when its payment order is paid. A plan no dearer: scheduled for the period end (pending true, invoice null). The current plan: clears a scheduled change. A newer change voids an open upgrade invoice.",
      request: {
        params: subscriptionIdParams,
        query: noQuery,
        body: { content: { "application/json": { schema: changePlanBody } } },
      },
      responses: {
        200: json(
          "The subscription, the upgrade's invoice (or null) and whether the change is pending.",
          planChangeSchema,
        ),
        ...invalid,
        ...noSubscription,
        409: error("The subscription is not active."),
        422: error("No such plan, a free plan, or a plan of another billing period."),
      },
    },
    {
      method: "post",
      path: "/v1/merchant/subscriptions/{id}/cancel",
      operationId: "cancelSubscription",
      summary: "Cancel a subscription",
      description:
        "at_period_end true (default): cancel_at_period_end is set and the renewal job cancels it when the period ends. false: canceled now, its open invoices voided (their orders canceled), a live organisation back on the free plan.",
      request: {
        params: subscriptionIdParams,
        query: noQuery,
        body: { content: { "application/json": { schema: cancelSubscriptionBody } } },
      },
      responses: {
        200: json("The subscription.", subscriptionSchema),
        ...invalid,
        ...noSubscription,
        409: error("Already canceled (or, at the period end, not active or past_due)."),
      },
    },
    {
      method: "get",
      path: "/v1/merchant/portal/invoices",
      operationId: "listPortalInvoices",
      summary: "List subscription invoices",
      description: "An array, most recent first; filtered by subscription and status.",
      request: { query: listInvoicesQuery },
      responses: { 200: json("The invoices.", invoiceListSchema), ...invalid },
    },
  ];
}

function paymentOrderOperations(): RouteConfig[] {
  return [
    {
      method: "post",
      path: "/v1/payment-orders",
      operationId: "createPaymentOrder",
      summary: "Create a payment order",
      description:
        "Settled in USDC: one deposit address per accepted chain, held by this order alone while it is created.",
      request: {
        query: noQuery,
        body: { content: { "application/json": { schema: createPaymentOrderBody } } },
      },
      responses: {
        201: order("The new order with its payment instructions."),
        ...invalid,
        422: error("An accepted chain is not one of SETTLEMENT_CHAINS."),
      },
    },
    {
      method: "get",
      path: "/v1/payment-orders",
      operationId: "listPaymentOrders",
      summary: "List the payment orders of this organisation and environment",
      description: "Most recent first.",
      request: { query: listPaymentOrdersQuery },
      responses: {
        200: {
          description: "A page of orders.",
          content: { "application/json": { schema: paymentOrderListSchema } },
        },
        ...invalid,
      },
    },
    {
      method: "get",
      path: "/v1/payment-orders/{id}",
      operationId: "getPaymentOrder",
      summary: "Get a payment order",
      request: { params: paymentOrderIdParams, query: noQuery },
      responses: { 200: order("The order."), ...invalid, ...unknown },
    },
    {
      method: "post",
      path: "/v1/payment-orders/{id}/cancel",
      operationId: "cancelPaymentOrder",
      summary: "Cancel a payment order",
      description: "Only an order in created; its addresses are released in the same transaction.",
      request: { params: paymentOrderIdParams, query: noQuery },
      responses: {
        200: order("The canceled order."),
        ...invalid,
        ...unknown,
        409: error("The order is not in created (paid, expired or already canceled); nothing changed."),
      },
    },
  ];
}
