import { z } from "zod";
import { ENDPOINT_SORTS } from "../../catalogue/endpoint-queries";
import { callSchema } from "./call";
import { decimalParam, enumParam, isoTimestamp, pagingParams, searchListSchema, textParam } from "./common";
import { payabilitySchema } from "./payability";
import {
  booleanParam,
  driftSchema,
  lastProbeSchema,
  methodParam,
  paymentOptionSchema,
  relevanceNeedsQ,
} from "./services";

export const endpointListQuery = z
  .strictObject({
    q: textParam(200)
      .optional()
      .meta({
        description:
          "What the endpoint does: searched in its description, URL path, method and its service's name and " +
          "category (stemmed; typos corrected and partial matches when nothing has all the words, as on " +
          "/v1/services; the answer's `query` says how q was read).",
        example: "weather forecast",
      }),
    method: methodParam.optional().meta({ description: "HTTP method." }),
    category: textParam(200).optional().meta({ description: "The service's category, any case." }),
    max_price: decimalParam.optional().meta({
      description:
        "Some payment option of the endpoint costs at most this many USDC per call. Endpoints with no known price " +
        "do not match unless include_unpriced=true.",
      example: "0.01",
    }),
    include_unpriced: booleanParam
      .optional()
      .meta({ description: "true: max_price also keeps endpoints with no known price." }),
    network: textParam(100).optional().meta({
      description: "Some payment option is on this network: a CAIP-2 id or a network name, any case.",
    }),
    verified: booleanParam.optional().meta({
      description: "true: a valid x402 challenge within the last 24 hours; false: none.",
    }),
    drift: booleanParam.optional().meta({
      description:
        "true: the latest live challenge differed from what the listing claims (see drift); false: it did not.",
    }),
    payable: booleanParam
      .optional()
      .meta({ description: "Only endpoints a standard x402 client can (true) or cannot (false) pay." }),
    sort: enumParam(ENDPOINT_SORTS)
      .optional()
      .meta({
        description:
          "relevance (default with q; needs q) or price (the endpoint's lowest price per call, cheapest first, " +
          "unpriced last). Without q and sort: the busiest services' endpoints first.",
      }),
    ...pagingParams,
  })
  .superRefine(relevanceNeedsQ);

export const endpointHitSchema = z
  .strictObject({
    service_id: z.guid().meta({ description: "The catalogue entry (its primary row's id)." }),
    service_name: z.string().meta({ description: "The service's name." }),
    domain: z.string().nullable().meta({ description: "The service's host." }),
    method: z.string().meta({ description: "HTTP method." }),
    url: z.string().meta({ description: "The endpoint's URL." }),
    description: z.string().nullable().meta({ description: "What the endpoint does, per the source." }),
    payability: payabilitySchema,
    call: callSchema,
    verified: z.boolean().meta({ description: "A valid x402 challenge within the last 24 hours." }),
    last_verified_at: isoTimestamp.nullable(),
    payment_options: z.array(paymentOptionSchema).meta({ description: "What a call costs." }),
    last_probe: lastProbeSchema
      .omit({ challenge_valid: true })
      .nullable()
      .meta({ description: "The endpoint's most recent probe; null before the first." }),
    drift: driftSchema,
  })
  .meta({ id: "EndpointHit", description: "An endpoint of a listed service." });

export const endpointListSchema = searchListSchema(endpointHitSchema, "EndpointList");
