import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { errorBodySchema, noQuery } from "../schemas/common";
import {
  createPaymentOrderBody,
  listPaymentOrdersQuery,
  paymentOrderIdParams,
  paymentOrderListSchema,
  paymentOrderSchema,
} from "../schemas/payment-orders";

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

/** The payment order operations (src/http/routes/payment-orders.ts). */
export function billingOperations(): RouteConfig[] {
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
