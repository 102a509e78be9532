import { z } from "zod";
import { EVENT_TYPES } from "../../events/kinds";
import { DEFAULT_LIMIT, integerParam, MAX_LIMIT } from "./common";

const enabledEvent = z.union([z.literal("*"), z.enum(EVENT_TYPES)], {
  error: `must be * or one of ${EVENT_TYPES.join(", ")}`,
});

const url = z
  .string({ error: "must be a URL" })
  .max(2048, "must be at most 2048 characters")
  .refine((text) => URL.canParse(text), "must be an absolute http(s) URL")
  .meta({
    description: "Where deliveries are POSTed: https, or http only inside WEBHOOK_ALLOWED_NETWORKS.",
    example: "https://hooks.example.com/x402",
  });

const description = z.string().max(500, "must be at most 500 characters");
const enabledEvents = z
  .array(enabledEvent, { error: "must be an array of event kinds" })
  .min(1, "must name at least one event kind or *")
  .max(EVENT_TYPES.length + 1)
  .meta({ description: "The kinds delivered here; * for all." });

export const createWebhookEndpointBody = z.strictObject({
  url,
  description: description.default(""),
  enabled_events: enabledEvents,
  redact_metadata: z.boolean().default(false).meta({ description: "Remove data.metadata from deliveries." }),
});

export const updateWebhookEndpointBody = z
  .strictObject({
    url: url.optional(),
    description: description.optional(),
    enabled_events: enabledEvents.optional(),
    redact_metadata: z.boolean().optional(),
    disabled: z
      .boolean()
      .optional()
      .meta({ description: "true disables (sets disabled_at), false enables." }),
  })
  .meta({ description: "Only the fields given change." });

export const webhookEndpointIdParams = z.strictObject({
  id: z.guid({ error: "must be a webhook endpoint id (a UUID)" }),
});

export const deliveryIdParams = z.strictObject({
  id: z.guid({ error: "must be a webhook endpoint id (a UUID)" }),
  deliveryId: z.guid({ error: "must be a delivery id (a UUID)" }),
});

export const deliveryListQuery = z.strictObject({
  limit: integerParam(1, MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .meta({ description: `Newest first, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
});

const timestamp = z.string().meta({ format: "date-time" });

export const webhookEndpointSchema = z
  .strictObject({
    id: z.string().meta({ description: "The endpoint's id (a UUID)." }),
    url: z.string().meta({ description: "Where deliveries are POSTed." }),
    description: z.string().meta({ description: "The owner's note." }),
    enabled_events: z.array(z.string()).meta({ description: "The kinds delivered here; * for all." }),
    redact_metadata: z.boolean().meta({ description: "data.metadata is removed from deliveries." }),
    disabled_at: timestamp
      .nullable()
      .meta({ description: "Set by the owner, or after 3 days of failed deliveries." }),
    created_at: timestamp.meta({ description: "When it was created." }),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z.string().meta({ description: "whsec_…: shown only at creation and rotation." }),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export const webhookEndpointListSchema = z
  .strictObject({ items: z.array(webhookEndpointSchema).meta({ description: "Newest first." }) })
  .meta({ id: "WebhookEndpointList" });

export const deliverySchema = z
  .strictObject({
    id: z.string().meta({ description: "The delivery's id (for …/retry)." }),
    event_id: z.string().meta({ description: "The event delivered: the webhook-id header." }),
    event_type: z.string().meta({ description: "Its kind." }),
    status: z
      .enum(["pending", "succeeded", "failed"])
      .meta({ description: "failed: no 2xx within the 3-day retry window." }),
    next_attempt_at: timestamp.nullable().meta({ description: "When it is tried next; null when settled." }),
    created_at: timestamp.meta({ description: "When the event was emitted." }),
    attempts: z
      .array(
        z.strictObject({
          attempted_at: timestamp.meta({ description: "When the attempt started." }),
          duration_ms: z.number().int().meta({ description: "How long it took." }),
          response_status: z
            .number()
            .int()
            .nullable()
            .meta({ description: "The receiver's status; null: none." }),
          error: z.string().nullable().meta({ description: "Why it failed; null on success." }),
          succeeded: z.boolean().meta({ description: "A 2xx within 10 s." }),
        }),
      )
      .meta({ description: "Every attempt, oldest first." }),
  })
  .meta({ id: "WebhookDelivery" });

export const deliveryListSchema = z
  .strictObject({ items: z.array(deliverySchema).meta({ description: "Newest first." }) })
  .meta({ id: "WebhookDeliveryList" });
