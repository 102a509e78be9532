import { z } from "zod";
import { SERVICE_SORTS } from "../../catalogue/service-queries";
import {
  dateTimeParam,
  decimalParam,
  decimalString,
  enumParam,
  integerParam,
  isoTimestamp,
  listSchema,
  numberParam,
  pagingParams,
  repeatableParam,
  serviceIdParam,
  textParam,
} from "./common";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** Any case in, upper case out, as methods are stored. */
export const methodParam = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toUpperCase() : value),
  enumParam(HTTP_METHODS),
);

const MAX_COUNT = 2_147_483_647;

/** Filters and sort shared by the list and its CSV export. */
const serviceFilterParams = {
  q: textParam(200)
    .optional()
    .meta({
      description:
        "Full-text search over name, domain, description, category, tags and endpoint descriptions " +
        '(web-search syntax: "phrase", or, -word). Stemmed; when no service matches the words, ' +
        "services with similar words are returned instead (typos).",
      example: "stock quotes",
    }),
  category: textParam(200).optional().meta({ description: "Exact category, any case." }),
  tag: repeatableParam(textParam(100).toLowerCase(), 10)
    .optional()
    .meta({ description: "Tag; repeat for more: every tag given must be present." }),
  method: methodParam.optional().meta({ description: "Some endpoint has this HTTP method." }),
  domain: textParam(253)
    .toLowerCase()
    .optional()
    .meta({ description: "Exact host name, e.g. api.example.com." }),
  min_uptime: numberParam(0, 100).optional().meta({ description: "Lowest 30-day uptime, in percent." }),
  max_response_ms: numberParam(0, 3_600_000)
    .optional()
    .meta({ description: "Highest 30-day average response time, in ms." }),
  min_volume: decimalParam
    .optional()
    .meta({ description: "Lowest 30-day volume in USDC, a decimal string." }),
  min_tx: integerParam(0, MAX_COUNT).optional().meta({ description: "Lowest 30-day transaction count." }),
  min_payers: integerParam(0, MAX_COUNT).optional().meta({ description: "Lowest 30-day payer count." }),
  updated_since: dateTimeParam
    .optional()
    .meta({ description: "Services whose information was updated at or after this time (info_updated_at)." }),
  status: enumParam(["listed", "delisted", "all"])
    .default("listed")
    .meta({ description: "listed (default), delisted or all." }),
  sort: enumParam(SERVICE_SORTS)
    .optional()
    .meta({
      description:
        "relevance (default with q), volume (default otherwise), tx_count, payers, uptime, response_ms, " +
        "name, updated, first_seen. Missing values sort last; ties are broken by id.",
    }),
  order: enumParam(["asc", "desc"])
    .optional()
    .meta({ description: "Default: asc for name and response_ms, desc for the others." }),
};

function relevanceNeedsQ(query: { q?: string | undefined; sort?: string | undefined }, ctx: z.RefinementCtx) {
  if (query.sort === "relevance" && query.q === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["sort"],
      message: "relevance needs q; without q use another sort",
    });
  }
}

export const serviceListQuery = z
  .strictObject({ ...serviceFilterParams, ...pagingParams })
  .superRefine(relevanceNeedsQ);

export const serviceExportQuery = z.strictObject(serviceFilterParams).superRefine(relevanceNeedsQ);

export const serviceIdParams = z.strictObject({ id: serviceIdParam });

export const historyQuery = z
  .strictObject({
    from: dateTimeParam.optional().meta({ description: "Rows observed at or after this time." }),
    to: dateTimeParam.optional().meta({ description: "Rows observed at or before this time." }),
    ...pagingParams,
  })
  .superRefine(fromBeforeTo);

export const historyExportQuery = z
  .strictObject({
    service_id: serviceIdParam.optional().meta({ description: "One service; all services when absent." }),
    from: dateTimeParam.optional().meta({ description: "Rows observed at or after this time." }),
    to: dateTimeParam.optional().meta({ description: "Rows observed at or before this time." }),
  })
  .superRefine(fromBeforeTo);

function fromBeforeTo(query: { from?: Date | undefined; to?: Date | undefined }, ctx: z.RefinementCtx) {
  if (query.from && query.to && query.from > query.to) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  }
}

const nullableNumber = z.number().nullable();
const nullableInteger = z.number().int().nullable();

export const serviceEndpointSchema = z
  .strictObject({ method: z.string(), url: z.string(), description: z.string().nullable() })
  .meta({ id: "ServiceEndpoint" });

export const serviceSchema = z
  .strictObject({
    id: z.guid().meta({ description: "Stable across crawls." }),
    name: z.string(),
    domain: z.string().nullable(),
    description: z.string().nullable(),
    category: z.string().nullable(),
    tags: z.array(z.string()),
    endpoints: z.array(serviceEndpointSchema),
    uptime_30d: nullableNumber.meta({ description: "Percent." }),
    avg_response_ms_30d: nullableNumber,
    info_updated_at: isoTimestamp.nullable(),
    volume_usdc_30d: decimalString.nullable(),
    tx_count_30d: nullableInteger,
    payer_count_30d: nullableInteger,
    status: z.enum(["listed", "delisted"]),
    first_seen_at: isoTimestamp,
    last_seen_at: isoTimestamp,
    source_url: z.string().meta({ description: "The directory's detail page." }),
  })
  .meta({ id: "Service", description: "A paid service; missing values are null." });

export const serviceListSchema = listSchema(serviceSchema, "ServiceList");

export const historyItemSchema = z
  .strictObject({
    observed_from: isoTimestamp,
    observed_to: isoTimestamp,
    uptime_30d: nullableNumber,
    avg_response_ms_30d: nullableNumber,
    volume_usdc_30d: decimalString.nullable(),
    tx_count_30d: nullableInteger,
    payer_count_30d: nullableInteger,
    info_updated_at: isoTimestamp.nullable(),
  })
  .meta({ id: "HistoryItem", description: "The figures over one interval in which they did not change." });

export const historyListSchema = listSchema(historyItemSchema, "HistoryList");
