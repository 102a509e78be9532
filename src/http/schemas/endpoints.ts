import { z } from "zod";
import {
  ENDPOINT_FILTERS,
  endpointSortParams,
  paramsOf,
  relevanceNeedsQ,
} from "../../search/catalogue-search";
import { callSchema } from "./call";
import { endpointCallFields, isoTimestamp, pagingParams, searchListSchema } from "./common";
import { payabilitySchema } from "./payability";
import { driftSchema, lastProbeSchema, paymentOptionSchema } from "./services";
import { listTrustFields } from "./trust";

export const endpointListQuery = z
  .strictObject({ ...paramsOf(ENDPOINT_FILTERS), ...endpointSortParams, ...pagingParams })
  .superRefine(relevanceNeedsQ);

export const endpointHitSchema = z
  .strictObject({
    service_id: z.guid().meta({ description: "The catalogue entry (its primary row's id)." }),
    service_name: z.string().meta({ description: "The service's name." }),
    domain: z.string().nullable().meta({ description: "The service's host." }),
    ...endpointCallFields,
    url: z.string().meta({ description: "The endpoint's URL." }),
    description: z.string().nullable().meta({ description: "What the endpoint does, per the source." }),
    payability: payabilitySchema,
    call: callSchema,
    ...listTrustFields,
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
