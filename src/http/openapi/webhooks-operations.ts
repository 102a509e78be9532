import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { errorBodySchema, noQuery } from "../schemas/common";
import { eventListQuery, eventPageSchema } from "../schemas/events";
import {
  createWebhookEndpointBody,
  deliveryIdParams,
  deliveryListQuery,
  deliveryListSchema,
  updateWebhookEndpointBody,
  webhookEndpointIdParams,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from "../schemas/webhooks";

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: errorBodySchema } },
});

const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});

const invalid = {
  400: errorResponse("A parameter, the body or the URL is invalid or refused; the message says why."),
};
const missing = {
  404: errorResponse("No webhook endpoint (or delivery) with this id in this organisation and environment."),
};
const queued = { description: "Queued for delivery.", content: {} };
export const body = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });

/** GET /v1/events and the webhook endpoints (src/http/routes/events.ts, webhooks.ts). */
export function eventAndWebhookOperations(): RouteConfig[] {
  const byId = { params: webhookEndpointIdParams, query: noQuery };
  return [
    {
      method: "get",
      path: "/v1/events",
      operationId: "listEvents",
      summary: "Read change events after a cursor",
      description:
        "Catalogue events for anyone; with a key, also its organisation's and environment's own events. A stable " +
        "order: an event committed later never appears before a cursor already handed out. Kept EVENT_RETENTION_DAYS.",
      request: { query: eventListQuery },
      responses: { 200: json("A page of events, oldest first.", eventPageSchema), ...invalid },
    },
    {
      method: "post",
      path: "/v1/webhook-endpoints",
      operationId: "createWebhookEndpoint",
      summary: "Create a webhook endpoint",
      description:
        "Deliveries are POSTed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) " +
        "signed with the secret in this answer (shown again only at rotation).",
      request: { query: noQuery, body: body(createWebhookEndpointBody) },
      responses: { 201: json("The endpoint with its secret.", webhookEndpointWithSecretSchema), ...invalid },
    },
    {
      method: "get",
      path: "/v1/webhook-endpoints",
      operationId: "listWebhookEndpoints",
      summary: "List the webhook endpoints of this organisation and environment",
      request: { query: noQuery },
      responses: { 200: json("Newest first.", webhookEndpointListSchema), ...invalid },
    },
    {
      method: "get",
      path: "/v1/webhook-endpoints/{id}",
      operationId: "getWebhookEndpoint",
      summary: "One webhook endpoint",
      request: byId,
      responses: { 200: json("The endpoint.", webhookEndpointSchema), ...invalid, ...missing },
    },
    {
      method: "patch",
      path: "/v1/webhook-endpoints/{id}",
      operationId: "updateWebhookEndpoint",
      summary: "Change, disable or enable a webhook endpoint",
      request: { ...byId, body: body(updateWebhookEndpointBody) },
      responses: { 200: json("The endpoint.", webhookEndpointSchema), ...invalid, ...missing },
    },
    {
      method: "delete",
      path: "/v1/webhook-endpoints/{id}",
      operationId: "deleteWebhookEndpoint",
      summary: "Delete a webhook endpoint and its deliveries",
      request: byId,
      responses: { 204: { description: "Deleted." }, ...invalid, ...missing },
    },
    {
      method: "post",
      path: "/v1/webhook-endpoints/{id}/rotate-secret",
      operationId: "rotateWebhookEndpointSecret",
      summary: "Rotate the signing secret",
      description:
        "Deliveries are signed with the new secret and, for 24 hours after each rotation, with the secret it replaced: one signature per secret in webhook-signature, so a receiver holding any secret of the last 24 hours verifies.",
      request: byId,
      responses: {
        200: json("The endpoint with its new secret.", webhookEndpointWithSecretSchema),
        ...invalid,
        ...missing,
      },
    },
    {
      method: "post",
      path: "/v1/webhook-endpoints/{id}/test",
      operationId: "testWebhookEndpoint",
      summary: "Send a webhook_endpoint.test event to this endpoint only",
      request: byId,
      responses: { 202: queued, ...invalid, ...missing, 409: errorResponse("The endpoint is disabled.") },
    },
    {
      method: "get",
      path: "/v1/webhook-endpoints/{id}/deliveries",
      operationId: "listWebhookDeliveries",
      summary: "Deliveries to this endpoint with every attempt",
      request: { params: webhookEndpointIdParams, query: deliveryListQuery },
      responses: { 200: json("Newest first.", deliveryListSchema), ...invalid, ...missing },
    },
    {
      method: "post",
      path: "/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry",
      operationId: "retryWebhookDelivery",
      summary: "Deliver again now",
      request: { params: deliveryIdParams, query: noQuery },
      responses: { 202: queued, ...invalid, ...missing },
    },
  ];
}
