import { z } from "zod";
import { FLAG_RULES } from "../activity/wash-rules";
import { ownerIdentitySchema } from "../ownership/owner-identity";

/**
 * The `data` of each event kind, version 1. A change to a payload that could break a consumer
 * is a new version of its kind (kinds.ts), never an edit here.
 */

const id = z.string().meta({ description: "A UUID." });
const decimal = z.string().meta({ description: "An exact decimal amount, as a string." });

const serviceRef = z
  .strictObject({
    id: id.meta({ description: "The service's id (GET /v1/services/{id})." }),
    name: z.string().meta({ description: "The service's name." }),
    source: z.string().meta({ description: "The source that lists it (directory, bazaar, …)." }),
    detail_url: z.string().meta({ description: "The service's page at its source." }),
  })
  .meta({ id: "EventServiceRef" });

const endpointRef = z
  .strictObject({
    id: id.meta({ description: "The endpoint's id." }),
    method: z.string().meta({ description: "HTTP method, e.g. GET." }),
    url: z.string().meta({ description: "The endpoint's URL." }),
  })
  .meta({ id: "EventEndpointRef" });

export const serviceEventData = z.strictObject({ service: serviceRef });

export const serviceUpdatedData = z.strictObject({
  service: serviceRef,
  changes: z
    .array(
      z.strictObject({
        field: z.string().meta({ description: "The API's field name, e.g. name or description." }),
        old: z.unknown().meta({ description: "The value before." }),
        new: z.unknown().meta({ description: "The value after." }),
      }),
    )
    .min(1)
    .meta({ description: "Each changed field with its old and new value." }),
});

export const endpointEventData = z.strictObject({ service_id: id, endpoint: endpointRef });

const listedPrice = z
  .strictObject({
    scheme: z.string().nullable().meta({ description: "x402 scheme, e.g. exact." }),
    network: z.string().nullable().meta({ description: "CAIP-2 chain id, e.g. eip155:8453." }),
    asset: z.string().nullable().meta({ description: "The token's address as the source wrote it." }),
    asset_symbol: z
      .string()
      .nullable()
      .meta({ description: "USDC when the asset is a known USDC contract." }),
    amount_atomic: z
      .string()
      .nullable()
      .meta({ description: "The amount in the asset's smallest unit (an exact integer string)." }),
    price_usdc: decimal.nullable().meta({ description: "The amount in USDC, when the asset is USDC." }),
    pay_to: z.string().nullable().meta({ description: "The address paid." }),
  })
  .meta({ id: "EventListedPrice" });

const listedPrices = (when: string) =>
  z.array(listedPrice).meta({
    description: `The payment options the source listed ${when}, in its order ([]: none).`,
  });

export const endpointPriceChangedData = z.strictObject({
  service_id: id,
  endpoint: endpointRef,
  old_prices: listedPrices("before"),
  new_prices: listedPrices("now"),
});

export const endpointVerificationChangedData = z.strictObject({
  service_id: id,
  endpoint: endpointRef,
  old_outcome: z
    .string()
    .nullable()
    .meta({ description: "The previous probe's verdict; null: never probed." }),
  new_outcome: z.string().meta({ description: "The latest probe's verdict." }),
});

const healthState = z.enum(["unknown", "live", "degraded", "down", "dead"]);

const decidingProbe = z
  .strictObject({
    probed_at: z.string().meta({ description: "When (ISO 8601)." }),
    outcome: z.string().meta({ description: "challenge, no_challenge, http_error or network_error." }),
    status_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The HTTP status; null without an answer." }),
    challenge_valid: z.boolean().meta({ description: "Whether it carried a valid x402 challenge." }),
  })
  .meta({ id: "EventDecidingProbe" });

const healthChange = {
  old_health: healthState.meta({ description: "The previous health." }),
  new_health: healthState.meta({ description: "The health now (src/trust/health.ts)." }),
  reason: z.string().meta({ description: "Why, in words (probe counts, how long)." }),
};

export const endpointHealthChangedData = z.strictObject({
  service_id: id,
  endpoint: endpointRef,
  ...healthChange,
  probes: z.array(decidingProbe).meta({ description: "The latest probes that decided, newest first." }),
});

export const serviceHealthChangedData = z.strictObject({ service_id: id, ...healthChange });

export const originOwnerChangedData = z.strictObject({
  origin: z.string().meta({ description: "The origin (scheme://host[:port])." }),
  owner: ownerIdentitySchema.meta({ description: "The owner now." }),
  previous_owner: ownerIdentitySchema
    .nullable()
    .meta({ description: "The owner it replaced; null for the first." }),
  verified_at: z.string().meta({ format: "date-time", description: "When the new owner's proof verified." }),
});

export const crawlEventData = z.strictObject({
  crawl_run_id: id.meta({ description: "The run (GET /v1/crawls)." }),
  source: z.string().meta({ description: "The source crawled." }),
  status: z.string().meta({ description: "The run's final status." }),
  error: z.string().nullable().meta({ description: "Why it failed; null when it completed." }),
});

export const webhookEndpointDisabledData = z.strictObject({
  webhook_endpoint_id: id.meta({ description: "The endpoint that was disabled." }),
  url: z.string().meta({ description: "Its URL." }),
  disabled_at: z.string().meta({ format: "date-time", description: "When it was disabled." }),
  reason: z.string().meta({ description: "Why it was disabled." }),
});

export const webhookTestData = z.strictObject({
  webhook_endpoint_id: id.meta({ description: "The endpoint tested." }),
  message: z.string().meta({ description: "A fixed text." }),
});

const timestamp = z.string().meta({ format: "date-time" });

export const paymentOrderEventData = z.strictObject({
  payment_order: z
    .strictObject({
      id,
      merchant_order_id: z.string().meta({ description: "The merchant's own reference." }),
      amount: decimal.meta({ description: "The amount due in USDC (6 decimals)." }),
      received_amount: decimal.meta({ description: "Confirmed transfers credited to it." }),
      status: z.string().meta({ description: "created, paid, expired or canceled." }),
    })
    .meta({ id: "EventPaymentOrderRef" }),
  metadata: z
    .string()
    .nullable()
    .meta({ description: "The order's metadata (left out for endpoints with redact_metadata)." }),
});

/** A confirmed transfer recorded against a payment order but not credited to it: money to refund. */
export const unappliedTransfer = z
  .strictObject({
    chain: z.string().meta({ description: "The chain it was sent on, such as base." }),
    transaction: z.string().meta({ description: "The transaction's hash." }),
    log_index: z
      .number()
      .int()
      .meta({ description: "Its Transfer log's index in the block (one transaction may carry several)." }),
    from: z.string().meta({ description: "The address that sent it." }),
    amount: decimal.meta({ description: "The USDC it carried (6 decimals)." }),
    time: timestamp.meta({ description: "Its block's time." }),
  })
  .meta({
    id: "UnappliedTransfer",
    description:
      "A confirmed transfer recorded against a payment order but not credited to it: money to refund.",
  });

export const paymentOrderUnappliedTransferData = paymentOrderEventData.extend({
  transfer: unappliedTransfer,
});

export const invoicePaidData = z.strictObject({
  invoice: z
    .strictObject({
      id,
      subscription_id: id,
      merchant_user_id: z.string().meta({ description: "The subscriber, as the merchant named it." }),
      kind: z.string().meta({ description: "first, upgrade or renewal." }),
      amount: decimal,
      payment_order_id: id,
      target_plan_id: z.string().meta({ description: "The plan the subscription is on once paid." }),
      paid_at: timestamp.meta({ description: "When its payment order was paid." }),
    })
    .meta({ id: "EventInvoiceRef" }),
});

export const subscriptionUpdatedData = z.strictObject({
  subscription: z
    .strictObject({
      id,
      merchant_user_id: z.string().meta({ description: "The subscriber, as the merchant named it." }),
      plan_id: z.string().meta({ description: "The plan in force now." }),
      status: z.string().meta({ description: "incomplete, active, past_due or canceled." }),
      current_period_end: timestamp.meta({ description: "The next renewal." }),
      cancel_at_period_end: z.boolean().meta({ description: "Ends instead of renewing." }),
      pending_plan_id: z.string().nullable().meta({ description: "A plan scheduled for the period end." }),
      pending_plan_change_at: timestamp.nullable().meta({ description: "When that plan takes effect." }),
    })
    .meta({ id: "EventSubscriptionRef" }),
  previous: z
    .strictObject({
      plan_id: z.string().meta({ description: "The plan before." }),
      status: z.string().meta({ description: "The status before." }),
    })
    .meta({ description: "The plan and status before this change." }),
  reason: z
    .string()
    .meta({ description: "What moved it: activated, upgraded, downgrade_scheduled, renewed, past_due, …" }),
});

export const x402PaymentData = z.strictObject({
  x402_payment: z
    .strictObject({
      id,
      route: z.string().meta({ description: "The sold route, e.g. GET /v1/services." }),
      network: z.string().meta({ description: "CAIP-2 network, e.g. eip155:8453." }),
      payer: z.string().meta({ description: "The paying address (lower case)." }),
      pay_to: z.string().meta({ description: "The operator's receiving address (lower case)." }),
      asset: z.string().meta({ description: "The token contract (lower case)." }),
      amount: decimal.meta({ description: "The amount in USDC (6 decimals)." }),
      status: z.string().meta({
        description: "settled or failed (events); pending in the list while it is being settled.",
      }),
      transaction: z.string().nullable().meta({ description: "The settlement transaction, once settled." }),
      failure_reason: z
        .string()
        .nullable()
        .meta({ description: "Why settling failed, when it did (pending: why the last attempt failed)." }),
    })
    .meta({ id: "EventX402PaymentRef" }),
});

export const serviceActivityFlaggedData = z.strictObject({
  service: serviceRef,
  flagged_transfers: z.number().int().meta({ description: "Transfers flagged for the first time." }),
  rules: z
    .array(z.enum(FLAG_RULES))
    .meta({ description: "The rules that flagged them (docs/agents.md, Observed volume)." }),
  transfers: z
    .array(
      z.strictObject({
        rule: z.enum(FLAG_RULES).meta({ description: "The rule that flagged it." }),
        chain: z.string().meta({ description: "CAIP-2 chain id, e.g. eip155:8453." }),
        tx_hash: z.string().meta({ description: "The flagged transfer's transaction." }),
        log_index: z.number().int().meta({ description: "Its Transfer log's index in the block." }),
        payer: z.string().meta({ description: "The sender, lower-case." }),
        pay_to: z.string().meta({ description: "The service's pay_to, lower-case." }),
        value_usdc: decimal,
        at: z.string().meta({ description: "The block's time (ISO 8601)." }),
        evidence: z.array(z.string()).meta({ description: "The transactions that triggered the rule." }),
      }),
    )
    .meta({ description: "Up to 20 of the flagged transfers, each with its rule and evidence." }),
});
