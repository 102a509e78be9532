import { z } from "zod";
import { WARNINGS } from "../../trust/warnings";
import { isoTimestamp } from "./common";
import { paymentOptionSchema } from "./services";
import { checkSchema } from "./trust";

export const preflightBody = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .meta({ description: "The endpoint to call.", example: "https://api.seller.example/v1/quote" }),
  method: z
    .enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    .default("GET")
    .meta({ description: "How the endpoint is called (GET when omitted)." }),
});

export const preflightSchema = z
  .strictObject({
    url: z.string().meta({ description: "The endpoint probed." }),
    method: z.string().meta({ description: "The method it was called with." }),
    checked_at: isoTimestamp.meta({ description: "When it was probed." }),
    cached: z
      .boolean()
      .meta({ description: "Answered from the last 60 s's probe of the same method and URL." }),
    catalogued: z
      .strictObject({
        service_id: z.string().meta({ description: "Its service (GET /v1/services/{id})." }),
        endpoint_id: z.string().meta({ description: "The endpoint's id." }),
      })
      .nullable()
      .meta({
        description: "The catalogued endpoint (the probe is recorded on it); null when not catalogued.",
      }),
    outcome: z
      .string()
      .meta({ description: "challenge, no_challenge, http_error, network_error or refused (SSRF guard)." }),
    status_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The HTTP status; null without an answer." }),
    x402_version: z.number().int().nullable().meta({ description: "The challenge's protocol version." }),
    challenge_valid: z
      .boolean()
      .meta({ description: "A well-formed x402 challenge with at least one usable option." }),
    error: z
      .string()
      .nullable()
      .meta({ description: "Why the answer is not a valid challenge; null when it is." }),
    auth_only: z
      .boolean()
      .meta({ description: "The 402 asks for a sign-in (sign-in-with-x), not a payment." }),
    idempotent: z.boolean().meta({
      description: "The payment-identifier extension is offered: a retried payment is charged once.",
    }),
    extensions: z.array(z.string()).meta({ description: "The challenge's extensions, by name." }),
    self_reported: z
      .strictObject({
        service_name: z
          .string()
          .nullable()
          .meta({ description: "resource.serviceName, as the seller wrote it." }),
        tags: z.array(z.string()).meta({ description: "resource.tags, as the seller wrote them." }),
        icon_url: z.string().nullable().meta({ description: "resource.iconUrl, as the seller wrote it." }),
      })
      .meta({ description: "What the v2 challenge says about its service: the seller's words, not ours." }),
    payment_options: z.array(paymentOptionSchema.omit({ source: true, source_url: true })).meta({
      description: "The live challenge's payment options, as the official client would read them.",
    }),
    payable: z
      .boolean()
      .meta({ description: "Whether the official x402 client builds a payment for one of them." }),
    checks: z.array(checkSchema).meta({ description: "The named checks one answer can decide." }),
    grade: z.enum(["A", "B", "C", "D", "F"]).meta({ description: "From the checks (docs/agents.md)." }),
    score: z.number().int().min(0).max(100).meta({ description: "0–100, agreeing with the grade." }),
    warnings: z
      .array(z.enum(WARNINGS))
      .meta({ description: "unpayable, auth_only or drift, as this answer shows." }),
  })
  .meta({ id: "Preflight", description: "One live look at an endpoint before paying it." });
