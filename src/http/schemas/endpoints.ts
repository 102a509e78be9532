import { z } from "zod";
import { callSchema } from "./call";
import { isoTimestamp, listSchema, pagingParams, textParam } from "./common";
import { payabilitySchema } from "./payability";
import { booleanParam, methodParam, paymentOptionSchema } from "./services";

export const endpointListQuery = z.strictObject({
  q: textParam(200)
    .optional()
    .meta({
      description:
        "What the endpoint does: searched in its description, URL path, method and its service's name and " +
        "category (stemmed; similar words when nothing matches).",
      example: "weather forecast",
    }),
  method: methodParam.optional().meta({ description: "HTTP method." }),
  category: textParam(200).optional().meta({ description: "The service's category, any case." }),
  payable: booleanParam
    .optional()
    .meta({ description: "Only endpoints a standard x402 client can (true) or cannot (false) pay." }),
  ...pagingParams,
});

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
  })
  .meta({ id: "EndpointHit", description: "An endpoint of a listed service." });

export const endpointListSchema = listSchema(endpointHitSchema, "EndpointList");
