import { z } from "zod";
import { paramsOf, relevanceNeedsQ, SERVICE_FILTERS, serviceSortParams } from "../../search/catalogue-search";
import { callSchema } from "./call";
import {
  dateTimeParam,
  decimalString,
  endpointCallFields,
  enumParam,
  exportPagingParams,
  isoTimestamp,
  listSchema,
  pagingParams,
  searchListSchema,
  serviceIdParam,
} from "./common";
import { endpointObservedSchema, serviceObservedSchema } from "./observed";
import { ownerReportSchema } from "./ownership";
import { optionPayabilityFields, payabilitySchema, priceKindSchema } from "./payability";
import { evidenceSchema, selfReportedSchema } from "./self-reported";
import { endpointTrustFields, listTrustFields, serviceTrustFields } from "./trust";

/** Filters and sort shared by the list, its CSV export and the MCP search tool. */
export const serviceFilterParams = { ...paramsOf(SERVICE_FILTERS), ...serviceSortParams };

export const serviceListQuery = z
  .strictObject({ ...serviceFilterParams, ...pagingParams })
  .superRefine(relevanceNeedsQ);

export const serviceExportQuery = z
  .strictObject({ ...serviceFilterParams, ...exportPagingParams })
  .superRefine(relevanceNeedsQ);

/**
 * A path id is any text: one that is not a service id names no service, so it is a 404 like an
 * unknown UUID (the client asked for a resource, not a malformed search).
 */
export const serviceIdParams = z.strictObject({
  id: z.string().meta({ description: "The service's id, as the list shows it." }),
});

/** Whether a path id can name a service at all (ids are UUIDs); any other answers 404 unread. */
export function isServiceId(id: string): boolean {
  return serviceIdParam.safeParse(id).success;
}

/** Which series of the history: the figures' intervals, or observed payments per day. */
const seriesParam = enumParam(["figures", "observed_daily"])
  .default("figures")
  .meta({
    description:
      "figures (default): the 30-day figures over the intervals in which they did not change. observed_daily: " +
      "per UTC day, what the chain shows the service's pay_tos received (raw and adjusted volume, transactions, " +
      "distinct payers; docs/agents.md, Observed volume); days without a payment have no row.",
  });

export const historyQuery = z
  .strictObject({
    series: seriesParam,
    from: dateTimeParam.optional().meta({ description: "Rows observed at or after this time." }),
    to: dateTimeParam.optional().meta({ description: "Rows observed at or before this time." }),
    ...pagingParams,
  })
  .superRefine(fromBeforeTo);

export const historyExportQuery = z
  .strictObject({
    service_id: serviceIdParam.optional().meta({ description: "One service; all services when absent." }),
    series: seriesParam,
    from: dateTimeParam.optional().meta({ description: "Rows observed at or after this time." }),
    to: dateTimeParam.optional().meta({ description: "Rows observed at or before this time." }),
    limit: exportPagingParams.limit,
  })
  .superRefine(fromBeforeTo);

export function fromBeforeTo(
  query: { from?: Date | undefined; to?: Date | undefined },
  ctx: z.RefinementCtx,
) {
  if (query.from && query.to && query.from > query.to) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  }
}

const nullableNumber = z.number().nullable();
const nullableInteger = z.number().int().nullable();

export const serviceEndpointSchema = z
  .strictObject({
    ...endpointCallFields,
    url: z.string().meta({ description: "The endpoint's URL, as the source lists it." }),
    description: z.string().nullable().meta({ description: "What the endpoint does, per the source." }),
  })
  .meta({ id: "ServiceEndpoint" });

export const serviceSchema = z
  .strictObject({
    id: z.guid().meta({ description: "Stable across crawls." }),
    name: z.string().meta({ description: "The service's name, as listed." }),
    domain: z.string().nullable().meta({ description: "The host the service answers on." }),
    description: z.string().nullable().meta({ description: "What the service does, per its source." }),
    category: z.string().nullable().meta({ description: "The source's category (see /v1/categories)." }),
    tags: z.array(z.string()).meta({ description: "The source's tags, lower case (see /v1/tags)." }),
    endpoints: z.array(serviceEndpointSchema).meta({ description: "Its pay-per-call endpoints." }),
    uptime_30d: nullableNumber.meta({ description: "Percent." }),
    avg_response_ms_30d: nullableNumber.meta({
      description: "Average response time over 30 days, ms (source's figure).",
    }),
    info_updated_at: isoTimestamp
      .nullable()
      .meta({ description: "When the source last updated these figures." }),
    volume_usdc_30d: decimalString
      .nullable()
      .meta({ description: "Payments received over 30 days, USDC (source's figure)." }),
    tx_count_30d: nullableInteger.meta({ description: "Paid calls over 30 days (source's figure)." }),
    payer_count_30d: nullableInteger.meta({ description: "Distinct payers over 30 days (source's figure)." }),
    status: z
      .enum(["listed", "delisted"])
      .meta({ description: "delisted: missing from its sources' last complete crawls, or its owner asked." }),
    delist_reason: z.enum(["owner_request"]).nullable().meta({
      description:
        "owner_request: its origin's verified owner had it delisted (crawls leave it so); null otherwise.",
    }),
    first_seen_at: isoTimestamp.meta({ description: "When a crawl first saw it." }),
    last_seen_at: isoTimestamp.meta({ description: "When a crawl last saw it." }),
    source_url: z.string().meta({
      description:
        "The primary source's page of the service (its detail page; a feed's resource origin): the same meaning as source_url in sources[] and payment_options[].",
    }),
    price_usdc_min: decimalString
      .nullable()
      .meta({ description: "The lowest price per call of any payment option, in USDC." }),
    networks: z.array(z.string()).meta({ description: "CAIP-2 networks of the payment options, sorted." }),
    ...listTrustFields,
    owner_verified: z.boolean().meta({
      description: 'The owner of an origin of its endpoints proved it (docs/api.md "Ownership").',
    }),
    owner_reported: ownerReportSchema.nullable().meta({
      description:
        "What that owner reports (description, category, tags, icon); the other fields stay as crawled.",
    }),
  })
  .meta({
    id: "Service",
    description:
      "A catalogue entry (the rows of one domain from every source, under its primary row); missing values are null.",
  });

export const probeWindowSchema = z.strictObject({
  probes: z.number().int().meta({ description: "Probes attempted in the window." }),
  uptime_pct: nullableNumber.meta({
    description: "Share of attempted probes answered below HTTP 500, in percent rounded to 0.01.",
  }),
  p50_ms: nullableNumber.meta({ description: "Median latency, ms rounded to 0.1." }),
  p99_ms: nullableNumber.meta({ description: "99th percentile latency, ms rounded to 0.1." }),
});

/** The last probe of an endpoint (or of any endpoint of a service). */
export const lastProbeSchema = z.strictObject({
  at: isoTimestamp.meta({ description: "When the probe ran." }),
  status_code: nullableInteger.meta({ description: "HTTP status answered; null when none came." }),
  outcome: z.string().meta({ description: "challenge, no_challenge, http_error, network_error or refused." }),
  challenge_valid: z.boolean().meta({ description: "The answer was a well-formed x402 payment challenge." }),
  error: z.string().nullable().meta({
    description:
      "Why the probe did not verify (a timeout, an answer without a valid x402 challenge, a 500…); null when it did.",
  }),
});

export const driftSchema = z
  .strictObject({
    seen_at: isoTimestamp.meta({ description: "The live challenge that showed the differences." }),
    differences: z
      .array(
        z.strictObject({
          kind: z.enum(["price", "network", "asset", "pay_to"]).meta({ description: "What differs." }),
          network: z.string().meta({ description: "The network of the payment option compared (CAIP-2)." }),
          claimed: z.string().nullable().meta({ description: "What the listing says." }),
          observed: z.string().nullable().meta({ description: "What the live challenge asked." }),
          message: z.string().meta({ description: "The difference in words." }),
        }),
      )
      .meta({ description: "One row per differing value." }),
  })
  .nullable()
  .meta({
    id: "PaymentDrift",
    description:
      "Where the endpoint's latest live challenge differs from what its listings claim (price, network, asset, pay_to); null when it matched.",
  });

export const probeSchema = z
  .strictObject({
    verified: z.boolean().meta({ description: "A valid x402 challenge within the last 24 hours." }),
    last_verified_at: isoTimestamp
      .nullable()
      .meta({ description: "The last probe that saw a valid challenge." }),
    last_probe: lastProbeSchema
      .nullable()
      .meta({ description: "The most recent probe; null before the first." }),
    windows: z
      .strictObject({
        "24h": probeWindowSchema.meta({ description: "The last 24 hours." }),
        "7d": probeWindowSchema.meta({ description: "The last 7 days." }),
        "30d": probeWindowSchema.meta({ description: "The last 30 days." }),
      })
      .meta({ description: "Probe counts, uptime and latency over the last 24 hours, 7 days and 30 days." }),
  })
  .meta({ id: "ProbeStats", description: "Our own unpaid probes, beside the directory's claims." });

export const paymentOptionSchema = z
  .strictObject({
    origin: z.enum(["listing", "probe"]).meta({ description: "What a source claimed, or what a probe saw." }),
    source: z.string().nullable().meta({
      description: "The claiming source's base URL (as the `source` filter takes it); null for probes.",
    }),
    source_url: z.string().nullable().meta({
      description: "The claiming source's page of the service (as a service's source_url); null for probes.",
    }),
    scheme: z.string().nullable().meta({ description: "x402 payment scheme, e.g. exact." }),
    price_kind: priceKindSchema,
    network: z.string().nullable().meta({ description: "CAIP-2, e.g. eip155:8453." }),
    network_name: z.string().nullable().meta({ description: "The network's common name, e.g. Base." }),
    asset: z.string().nullable().meta({ description: "Token address." }),
    asset_symbol: z.string().nullable().meta({ description: "The token's symbol, e.g. USDC." }),
    amount_atomic: z
      .string()
      .regex(/^\d+$/)
      .nullable()
      .meta({ description: "In the asset's smallest unit." }),
    price_usdc: decimalString
      .nullable()
      .meta({ description: "The price per call in USDC; null for other assets." }),
    pay_to: z.string().nullable().meta({ description: "The address that receives the payment." }),
    max_timeout_seconds: nullableInteger.meta({
      description: "How long a payment authorisation stays valid.",
    }),
    warnings: z
      .array(z.string())
      .meta({ description: "What looked wrong (unknown network, drift from the listing…)." }),
    ...optionPayabilityFields,
    observed_at: isoTimestamp,
  })
  .meta({ id: "PaymentOption" });

export const serviceDetailEndpointSchema = serviceEndpointSchema
  .extend({
    payment_options: z
      .array(paymentOptionSchema)
      .meta({ description: "What a call costs, as claimed and as probed." }),
    probe: probeSchema,
    payability: payabilitySchema,
    call: callSchema,
    self_reported: selfReportedSchema,
    evidence: evidenceSchema,
    drift: driftSchema,
    ...endpointTrustFields,
    observed: endpointObservedSchema,
  })
  .meta({ id: "ServiceDetailEndpoint" });

export const sourceListingSchema = z
  .strictObject({
    kind: z.enum(["html_directory", "bazaar", "origin_manifest", "registered"]).meta({
      description:
        "An HTML directory, a Bazaar discovery feed, the origin's own manifest (/.well-known/x402), or what its " +
        "seller registered (POST /v1/registrations).",
    }),
    source: z.string().meta({ description: "The source's base URL (as the `source` filter takes it)." }),
    source_url: z.string().meta({
      description:
        "This source's page of the service (its detail page; a feed's resource origin), as a service's source_url.",
    }),
    status: z.enum(["listed", "delisted"]).meta({ description: "Whether this source still lists it." }),
    first_seen_at: isoTimestamp,
    last_seen_at: isoTimestamp,
  })
  .meta({ id: "SourceListing", description: "Provenance: which source listed the entry, and when." });

export const serviceDetailSchema = serviceSchema
  .extend({
    endpoints: z
      .array(serviceDetailEndpointSchema)
      .meta({ description: "Endpoints of every row of the entry." }),
    probe: probeSchema,
    ...serviceTrustFields,
    sources: z.array(sourceListingSchema).meta({ description: "Every source that listed the entry." }),
    observed: serviceObservedSchema,
  })
  .meta({ id: "ServiceDetail" });

export const serviceListSchema = searchListSchema(serviceSchema, "ServiceList");

export const historyItemSchema = z
  .strictObject({
    observed_from: isoTimestamp,
    observed_to: isoTimestamp,
    uptime_30d: nullableNumber.meta({ description: "Percent (source's figure)." }),
    avg_response_ms_30d: nullableNumber.meta({ description: "Average response time, ms (source's figure)." }),
    volume_usdc_30d: decimalString.nullable(),
    tx_count_30d: nullableInteger.meta({ description: "Paid calls over 30 days (source's figure)." }),
    payer_count_30d: nullableInteger.meta({ description: "Distinct payers over 30 days (source's figure)." }),
    info_updated_at: isoTimestamp.nullable(),
  })
  .meta({ id: "HistoryItem", description: "The figures over one interval in which they did not change." });

export const observedDayItemSchema = z
  .strictObject({
    day: z.string().meta({ description: "The UTC day, YYYY-MM-DD.", example: "2026-11-27" }),
    observed_volume_usdc: decimalString.meta({ description: "USDC the pay_tos received that day, exact." }),
    adjusted_volume_usdc: decimalString.meta({ description: "The same without flagged transfers." }),
    observed_tx_count: z.number().int().meta({ description: "Transfers received." }),
    adjusted_tx_count: z.number().int().meta({ description: "Transfers received, flagged ones left out." }),
    observed_unique_payers: z.number().int().meta({ description: "Distinct payers." }),
    adjusted_unique_payers: z.number().int().meta({ description: "Distinct payers of unflagged transfers." }),
  })
  .meta({ id: "ObservedDayItem", description: "Observed payments of one UTC day (series=observed_daily)." });

/** An item of the history: of the figures series, or of observed_daily. */
export const historyEntrySchema = z.union([historyItemSchema, observedDayItemSchema]);

export const historyListSchema = listSchema(historyEntrySchema, "HistoryList");
