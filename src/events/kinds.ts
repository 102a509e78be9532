import type { z } from "zod";
import {
  crawlEventData,
  endpointEventData,
  endpointHealthChangedData,
  endpointPriceChangedData,
  endpointVerificationChangedData,
  invoicePaidData,
  originOwnerChangedData,
  paymentOrderEventData,
  paymentOrderUnappliedTransferData,
  serviceActivityFlaggedData,
  serviceEventData,
  serviceHealthChangedData,
  serviceUpdatedData,
  subscriptionUpdatedData,
  webhookEndpointDisabledData,
  webhookTestData,
  x402PaymentData,
} from "./payloads";

/**
 * Every event kind: its payload version, its schema, and who may see it. `public` kinds report
 * catalogue changes (anyone may read them, like the catalogue); `owned` kinds belong to one
 * organisation and environment and reach only them. Adding a kind is one line here plus its
 * payload schema in payloads.ts; the OpenAPI document, the pull API and the webhook filters
 * pick it up from this table.
 */
interface Kind {
  version: number;
  visibility: "public" | "owned";
  data: z.ZodType;
  description: string;
}

const kind = <S extends z.ZodType>(
  visibility: Kind["visibility"],
  data: S,
  description: string,
  version = 1,
) => ({ visibility, data, description, version });

export const EVENT_KINDS = {
  "service.listed": kind("public", serviceEventData, "A service appeared in the catalogue."),
  "service.updated": kind("public", serviceUpdatedData, "A service's fields changed (old and new values)."),
  "service.delisted": kind("public", serviceEventData, "A full crawl of its source no longer found it."),
  "service.relisted": kind("public", serviceEventData, "A delisted service was found again."),
  "service.activity_flagged": kind(
    "public",
    serviceActivityFlaggedData,
    "A rule flagged payments to the service's pay_tos as self-dealing for the first time (rule and evidence per transfer).",
  ),
  "endpoint.added": kind("public", endpointEventData, "A service gained an endpoint."),
  "endpoint.removed": kind("public", endpointEventData, "A service lost an endpoint."),
  "endpoint.price_changed": kind(
    "public",
    endpointPriceChangedData,
    "The payment options a source lists for an endpoint changed (amount, asset, network, pay_to or scheme): old and new.",
  ),
  "endpoint.verification_changed": kind(
    "public",
    endpointVerificationChangedData,
    "A probe's verdict flipped.",
  ),
  "endpoint.health_changed": kind(
    "public",
    endpointHealthChangedData,
    "An endpoint's health moved (unknown, live, degraded, down, dead): old, new, why, and the probes that decided.",
  ),
  "service.health_changed": kind(
    "public",
    serviceHealthChangedData,
    "A service's health, from its endpoints', moved: old, new and why.",
  ),
  "origin.owner_changed": kind(
    "public",
    originOwnerChangedData,
    'An origin got a verified owner, or a proof by another key replaced its owner (docs/api.md "Ownership").',
  ),
  "crawl.completed": kind("public", crawlEventData, "A crawl run finished."),
  "crawl.failed": kind("public", crawlEventData, "A crawl run failed."),
  "webhook_endpoint.disabled": kind(
    "owned",
    webhookEndpointDisabledData,
    "An endpoint was disabled after 3 days of failed deliveries.",
  ),
  "webhook_endpoint.test": kind(
    "owned",
    webhookTestData,
    "Sent by POST /v1/webhook-endpoints/{id}/test to that endpoint only.",
  ),
  "payment_order.created": kind("owned", paymentOrderEventData, "A payment order was created."),
  "payment_order.paid": kind("owned", paymentOrderEventData, "Confirmed transfers reached its amount."),
  "payment_order.expired": kind("owned", paymentOrderEventData, "It expired before it was paid in full."),
  "payment_order.canceled": kind(
    "owned",
    paymentOrderEventData,
    "It was canceled (or its invoice superseded).",
  ),
  "payment_order.unapplied_transfer": kind(
    "owned",
    paymentOrderUnappliedTransferData,
    "A confirmed transfer to its address was recorded but not credited (it came after the order was paid, canceled or expired, or after its expiry): money to refund. Once per transfer.",
  ),
  "invoice.paid": kind("owned", invoicePaidData, "A subscription invoice's payment order was paid."),
  "subscription.updated": kind(
    "owned",
    subscriptionUpdatedData,
    "A subscription's status, plan, period or scheduled change moved.",
  ),
  "x402_payment.settled": kind(
    "owned",
    x402PaymentData,
    "A call of the catalogue's own API was paid over x402 and settled on chain (to the operator's organisation, X402_OPERATOR_ORG).",
  ),
  "x402_payment.failed": kind(
    "owned",
    x402PaymentData,
    "An x402 payment for a call of the catalogue's own API could not be settled, by the answer or by the retries while its authorisation was valid.",
  ),
} satisfies Record<string, Kind>;

export type EventType = keyof typeof EVENT_KINDS;
export type EventData<T extends EventType> = z.input<(typeof EVENT_KINDS)[T]["data"]>;

export const EVENT_TYPES = Object.keys(EVENT_KINDS) as [EventType, ...EventType[]];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_KINDS, value);
}
