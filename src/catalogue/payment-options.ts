import type { Prisma } from "../generated/prisma/client";
import type { PaymentOption } from "../payments/types";

type Transaction = Prisma.TransactionClient;

/** What one source claims each endpoint of one service accepts. */
export interface ServicePaymentOptions {
  serviceId: string;
  observedAt: Date;
  /** Endpoints by method + URL (their identity within the service); options in the source's order. */
  endpoints: { method: string; url: string; options: PaymentOption[] }[];
}

// Column limits: amount_atomic DECIMAL(78,0), price_usdc DECIMAL(38,6), max_timeout_seconds INTEGER.
const MAX_ATOMIC_DIGITS = 78;
const MAX_PRICE_INTEGER_DIGITS = 32;
const MAX_INTEGER = 2_147_483_647;

/**
 * The option as its columns can hold it. A value that does not fit is dropped with a warning
 * rather than failing the whole batch: one seller's absurd price must not cost its neighbours.
 */
export function storablePaymentOption(option: PaymentOption): PaymentOption {
  const stored = { ...option, warnings: [...option.warnings] };
  if (stored.amount_atomic !== null && stored.amount_atomic.length > MAX_ATOMIC_DIGITS) {
    stored.warnings.push(`amount has more than ${MAX_ATOMIC_DIGITS} digits; not stored`);
    stored.amount_atomic = null;
  }
  const integerDigits = stored.price_usdc?.split(".")[0]?.length ?? 0;
  if (integerDigits > MAX_PRICE_INTEGER_DIGITS) {
    stored.warnings.push(`price of ${stored.price_usdc} USDC is too large to store`);
    stored.price_usdc = null;
  }
  const timeout = stored.max_timeout_seconds;
  if (timeout !== null && !Number.isInteger(timeout)) {
    stored.warnings.push(`maxTimeoutSeconds is not a whole number: ${timeout} (rounded)`);
    stored.max_timeout_seconds = Math.round(timeout);
  }
  if (stored.max_timeout_seconds !== null && stored.max_timeout_seconds > MAX_INTEGER) {
    stored.warnings.push(`maxTimeoutSeconds is too large to store: ${stored.max_timeout_seconds}`);
    stored.max_timeout_seconds = null;
  }
  return stored;
}

/**
 * Replaces the listing-origin options `sourceId` gave for every endpoint of these services, in
 * two set-based statements. Probe results and other sources' claims about the same endpoints
 * are left alone. Endpoints must already exist (saveServices writes them first, same transaction).
 */
export async function replaceListingPaymentOptions(
  tx: Transaction,
  sourceId: string,
  services: ServicePaymentOptions[],
): Promise<void> {
  if (services.length === 0) return;
  await tx.$executeRaw`
    DELETE FROM payment_options po USING endpoints e
    WHERE po.endpoint_id = e.id AND e.service_id = ANY(${services.map((s) => s.serviceId)}::uuid[])
      AND po.origin = 'listing' AND po.source_id = ${sourceId}::uuid`;
  const rows = services.flatMap((s) =>
    s.endpoints.flatMap((e) =>
      e.options.map((option, position) => ({
        serviceId: s.serviceId,
        method: e.method,
        url: e.url,
        position,
        observedAt: s.observedAt,
        option: storablePaymentOption(option),
      })),
    ),
  );
  if (rows.length === 0) return;
  const col = <T>(pick: (o: PaymentOption) => T) => rows.map((r) => pick(r.option));
  await tx.$executeRaw`
    INSERT INTO payment_options (id, endpoint_id, origin, source_id, position, scheme, network, network_name,
      asset, asset_symbol, amount_atomic, price_usdc, pay_to, max_timeout_seconds, warnings, payable,
      unpayable_reasons, observed_at, updated_at)
    SELECT gen_random_uuid(), e.id, 'listing', ${sourceId}::uuid, n.position, n.scheme, n.network, n.network_name,
      n.asset, n.asset_symbol, n.amount_atomic, n.price_usdc, n.pay_to, n.max_timeout_seconds,
      ARRAY(SELECT jsonb_array_elements_text(n.warnings::jsonb)), n.payable,
      ARRAY(SELECT jsonb_array_elements_text(n.unpayable_reasons::jsonb)), n.observed_at, now()
    FROM unnest(
      ${rows.map((r) => r.serviceId)}::uuid[], ${rows.map((r) => r.method)}::text[], ${rows.map((r) => r.url)}::text[],
      ${rows.map((r) => r.position)}::int[], ${col((o) => o.scheme)}::text[], ${col((o) => o.network)}::text[],
      ${col((o) => o.network_name)}::text[], ${col((o) => o.asset)}::text[], ${col((o) => o.asset_symbol)}::text[],
      ${col((o) => o.amount_atomic)}::numeric[], ${col((o) => o.price_usdc)}::numeric[], ${col((o) => o.pay_to)}::text[],
      ${col((o) => o.max_timeout_seconds)}::int[], ${col((o) => JSON.stringify(o.warnings))}::text[],
      ${col((o) => o.payable)}::boolean[], ${col((o) => JSON.stringify(o.unpayable_reasons))}::text[],
      ${rows.map((r) => r.observedAt)}::timestamptz[]
    ) AS n(service_id, method, url, position, scheme, network, network_name, asset, asset_symbol, amount_atomic,
           price_usdc, pay_to, max_timeout_seconds, warnings, payable, unpayable_reasons, observed_at)
    JOIN endpoints e ON e.service_id = n.service_id AND e.method = n.method AND e.url = n.url`;
}
