import { z } from "zod";
import { parseUsdcAmount } from "../../billing/usdc-amount";
import { enumParam, integerParam } from "./common";

export const PAYMENT_ORDER_STATUSES = ["created", "paid", "expired", "canceled"] as const;

const HOUR_MS = 3_600_000;
const MAX_EXPIRY_MS = 30 * 24 * HOUR_MS;

const usdcAmount = z
  .string({ error: 'must be a decimal string such as "12.50"' })
  .refine((text) => (parseUsdcAmount(text) ?? 0n) > 0n, {
    error: 'must be a positive decimal string with at most 6 decimals, such as "12.50"',
  });

const acceptedAsset = z.strictObject({
  chain: z.string({ error: "must be a chain name such as base" }).min(1).max(32).meta({ example: "base" }),
  asset: z.literal("USDC", { error: "must be USDC (orders settle in USDC)" }),
});

export const createPaymentOrderBody = z.strictObject({
  merchant_order_id: z
    .string({ error: "must be your own order reference (text)" })
    .trim()
    .min(1)
    .max(200)
    .meta({ example: "cart-7" }),
  amount: usdcAmount.meta({ description: "USDC as a decimal string, at most 6 decimals.", example: "12.50" }),
  accepted_assets: z
    .array(acceptedAsset, { error: "must be an array of {chain, asset}" })
    .min(1, "must name at least one {chain, asset}")
    .max(16)
    .refine(
      (assets) => new Set(assets.map((a) => a.chain)).size === assets.length,
      "must name each chain once",
    ),
  metadata: z.string({ error: "must be text" }).max(4000).optional(),
  expires_at: z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-11-24T18:00:00Z" })
    .optional(),
});

/** Default and bounds of an order's expiry, from its creation. */
export function orderExpiry(requested: string | undefined, now: number): Date | string {
  if (requested === undefined) return new Date(now + HOUR_MS);
  const at = Date.parse(requested);
  if (at <= now) return "expires_at must be in the future";
  if (at > now + MAX_EXPIRY_MS) return "expires_at must be at most 30 days ahead";
  return new Date(at);
}

export const listPaymentOrdersQuery = z.strictObject({
  offset: integerParam(0, 1_000_000).default(0),
  limit: integerParam(1, 200).default(50),
  status: enumParam(PAYMENT_ORDER_STATUSES).optional(),
});

export const paymentOrderIdParams = z.strictObject({
  id: z.guid({ error: "must be a payment order id (a UUID)" }),
});

const timestamp = z.string().meta({ format: "date-time" });
const usdc = (description: string) => z.string().meta({ description, example: "12.500000" });

const assetSchema = z.strictObject({
  chain: z.string().meta({ description: "A chain of SETTLEMENT_CHAINS, such as base.", example: "base" }),
  asset: z.string().meta({ description: "Always USDC.", example: "USDC" }),
});

export const paymentOrderSchema = z
  .strictObject({
    id: z.string().meta({ description: "The order's id (a UUID)." }),
    merchant_order_id: z.string().meta({ description: "Your own reference, as sent." }),
    amount: usdc("The amount due, with all 6 decimals of USDC."),
    requested_amount: z.string().meta({ description: "The amount as sent.", example: "12.5" }),
    chain_amount: z
      .string()
      .meta({ description: "The amount in the token's units (micro-USDC).", example: "12500000" }),
    settlement_asset: z.string().meta({ description: "Always USDC.", example: "USDC" }),
    status: z
      .enum(PAYMENT_ORDER_STATUSES)
      .meta({ description: "created, then paid, expired or canceled (final)." }),
    expires_at: timestamp.meta({ description: "Transfers in blocks after this are recorded, not credited." }),
    metadata: z.string().nullable().meta({ description: "Your text, as sent; null when none." }),
    created_at: timestamp.meta({ description: "When the order was created." }),
    accepted_assets: z
      .array(assetSchema)
      .meta({ description: "The chains and asset the order can be paid with." }),
    payment_instructions: z
      .array(
        assetSchema.extend({
          address: z.string().meta({ description: "The deposit address to send USDC to on that chain." }),
        }),
      )
      .meta({ description: "Where to pay, one per accepted asset." }),
    received_amount: usdc("Confirmed transfers credited to the order; above amount: overpaid."),
    paid_at: timestamp.nullable().meta({ description: "When the received amount reached the amount." }),
    canceled_at: timestamp.nullable().meta({ description: "When the order was canceled." }),
    expired_at: timestamp.nullable().meta({ description: "When the order expired unpaid." }),
    updated_at: timestamp.meta({ description: "The last change of the order." }),
  })
  .meta({ id: "PaymentOrder" });

export const paymentOrderListSchema = z
  .strictObject({
    items: z.array(paymentOrderSchema).meta({ description: "Most recent first." }),
    has_more: z.boolean().meta({ description: "Whether more orders follow this page." }),
  })
  .meta({ id: "PaymentOrderList" });
