import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { errorBodySchema } from "../http/schemas/common";
import { x402PaymentCsvQuery, x402PaymentListQuery, x402PaymentListSchema } from "./payments-route";

/** The OpenAPI operations of the x402 payments record (payments-route.ts). */
export function x402PaymentOperations(): RouteConfig[] {
  const invalid = {
    400: {
      description: "A parameter is invalid; the message names it.",
      content: { "application/json": { schema: errorBodySchema } },
    },
  };
  return [
    {
      method: "get",
      path: "/v1/x402-payments",
      operationId: "listSalesPayments",
      summary: "The catalogue's own x402 sales",
      description:
        "Every x402 payment for a call of this API, newest first: settled, or failed with the facilitator's reason.",
      request: { query: x402PaymentListQuery },
      responses: {
        200: { description: "Payments.", content: { "application/json": { schema: x402PaymentListSchema } } },
        ...invalid,
      },
    },
    {
      method: "get",
      path: "/v1/x402-payments.csv",
      operationId: "exportSalesPayments",
      summary: "The catalogue's own x402 sales as CSV",
      description: "The same rows as /v1/x402-payments, up to 10,000 a request.",
      request: { query: x402PaymentCsvQuery },
      responses: { 200: { description: "CSV, one payment a row.", content: { "text/csv": {} } }, ...invalid },
    },
  ];
}
