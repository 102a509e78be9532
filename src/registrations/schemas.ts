import { z } from "zod";
import { errorBodySchema, isoTimestamp } from "../http/schemas/common";
import { preflightSchema } from "../http/schemas/preflight";
import { CHECK_IDS, CHECK_RESULTS } from "../trust/types";

/** The zod schemas of the registration routes and the MCP tool register_resource. */

/** HTTP methods, and MCP: the url is an MCP server (Streamable HTTP) whose tools are registered. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "MCP"] as const;

const httpUrl = (description: string, example: string) =>
  z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .max(2_000, "must be at most 2000 characters")
    .meta({ description, example });

/** An origin is scheme, host and port: a path (other than /), query or fragment is refused, not dropped. */
function isBareOrigin(text: string): boolean {
  const url = new URL(text);
  return (
    url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && url.password === ""
  );
}

export const registrationBody = z
  .strictObject({
    url: httpUrl(
      "One resource to register: probed at once, listed when it answers a valid x402 challenge.",
      "https://api.seller.example/v1/quote",
    ).optional(),
    method: z
      .enum(METHODS, { error: `must be one of ${METHODS.join(", ")}` })
      .optional()
      .meta({
        description:
          "How the url is called (GET when omitted); MCP: the url is an MCP server, each of its paid tools is registered. Only with url.",
      }),
    origin: httpUrl(
      "An origin (scheme://host[:port]) whose manifest (/.well-known/x402) lists its resources.",
      "https://api.seller.example",
    )
      .refine(
        isBareOrigin,
        "must be an origin only (scheme://host[:port]), without a path, query or credentials",
      )
      .optional(),
  })
  .superRefine((body, context) => {
    if ((body.url === undefined) === (body.origin === undefined))
      context.addIssue({ code: "custom", path: ["url"], message: "give exactly one of url or origin" });
    if (body.method !== undefined && body.url === undefined)
      context.addIssue({ code: "custom", path: ["method"], message: "goes with url only" });
  })
  .meta({
    description: "Exactly one of url (with an optional method) or origin.",
    example: { url: "https://api.seller.example/v1/quote", method: "POST" },
  });

export const registrationIdParams = z.strictObject({
  id: z.guid({ error: "must be a registration id (a UUID)" }).meta({ description: "The registration's id." }),
});

/** The {origin} of /v1/origins/{origin}/reindex: a percent-encoded origin, or a bare host meaning https. */
export const originParams = z.strictObject({
  origin: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(300, "must be at most 300 characters")
    .transform((text, context) => {
      const candidate = text.includes("://") ? text : `https://${text}`;
      if (URL.canParse(candidate) && /^https?:$/.test(new URL(candidate).protocol) && isBareOrigin(candidate))
        return new URL(candidate).origin;
      context.addIssue({
        code: "custom",
        message:
          "must be an origin such as https%3A%2F%2Fapi.seller.example (percent-encoded) or a host name",
      });
      return z.NEVER;
    })
    .meta({
      description:
        "The origin, percent-encoded (https%3A%2F%2Fapi.seller.example), or its host name for https.",
    }),
});

const listedSchema = z
  .strictObject({
    method: z.string().meta({ description: "HTTP method, e.g. GET." }),
    url: z.string().meta({ description: "The resource's URL." }),
    service_id: z.string().meta({ description: "Its catalogue entry (GET /v1/services/{id})." }),
  })
  .meta({ id: "ListedResource" });

const probeVerdictSchema = z
  .strictObject({
    method: z.string().meta({ description: "The method it was probed with." }),
    url: z.string().meta({ description: "The URL probed." }),
    ...preflightSchema.pick({
      outcome: true,
      status_code: true,
      challenge_valid: true,
      x402_version: true,
      error: true,
    }).shape,
    payment_options: z.number().int().meta({ description: "How many payment options the challenge offers." }),
    checks: z
      .array(
        z.strictObject({
          id: z
            .enum(CHECK_IDS)
            .meta({ description: "The check's name (docs/agents.md, Checks and grades)." }),
          result: z.enum(CHECK_RESULTS).meta({ description: "pass, warn or fail." }),
          reason: z.string().meta({ description: "Why, in words." }),
        }),
      )
      .meta({ description: "The named checks this answer decides (docs/agents.md)." }),
  })
  .meta({ description: "The probe of the registered URL." });

const manifestVerdictSchema = z
  .strictObject({
    outcome: z.enum(["read", "absent", "failed"]).meta({
      description:
        "read; absent (no manifest); failed (one may exist but could not be read: nothing delisted).",
    }),
    url: z.string().nullable().meta({ description: "The manifest's URL (where it was read, or failed)." }),
    reason: z.string().nullable().meta({ description: "Why it is absent or could not be read." }),
    resources: z.number().int().meta({ description: "Resources the manifest lists on this origin." }),
    problems: z
      .array(
        z.strictObject({
          where: z.string().meta({ description: "The item's JSON path in the manifest." }),
          message: z.string().meta({ description: "Why it was not listed." }),
        }),
      )
      .meta({ description: "Items that could not be read (the first 20), with their JSON path." }),
  })
  .meta({ description: "The read of the origin's manifest." });

export const registrationSchema = z
  .strictObject({
    id: z.string().meta({ description: "The registration's id (GET /v1/registrations/{id})." }),
    kind: z
      .enum(["url", "origin"])
      .meta({ description: "One resource (url) or an origin's manifest (origin)." }),
    url: z.string().nullable().meta({ description: "The registered resource (kind url)." }),
    method: z.string().nullable().meta({ description: "How it is probed (kind url)." }),
    origin: z.string().meta({ description: "Its origin; the manifest read is this origin's." }),
    state: z.enum(["pending", "listed", "refused"]).meta({
      description:
        "listed: in the catalogue (source kind registered); refused: reason says why; pending: another check of " +
        "the origin held it up, GET it again.",
    }),
    reason: z
      .string()
      .nullable()
      .meta({ description: "Why it is refused (the probe's verdict, the manifest's read)." }),
    verdict: z
      .strictObject({ probe: probeVerdictSchema.nullable(), manifest: manifestVerdictSchema })
      .nullable()
      .meta({ description: "What the latest check saw; null before the first." }),
    listed: z.array(listedSchema).meta({ description: "What the latest check listed." }),
    submitted_with_key: z
      .boolean()
      .meta({ description: "First submitted with an API key (else anonymously)." }),
    checked_at: isoTimestamp.nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: "Registration", description: "A registered URL or origin." });

export const registrationRefusedSchema = errorBodySchema
  .extend({ registration: registrationSchema })
  .meta({ id: "RegistrationRefused", description: "The error body, with the refused registration." });

export const reindexSchema = z
  .strictObject({
    origin: z.string().meta({ description: "The origin re-indexed." }),
    status: z.enum(["completed", "partial", "failed", "aborted"]).meta({
      description:
        "The run's status: partial or failed when the manifest or a URL could not be read (nothing delisted).",
    }),
    message: z.string().nullable().meta({ description: "Why it is not completed." }),
    crawl_run_id: z.string().meta({ description: "The run (GET /v1/crawls)." }),
    counts: z
      .strictObject({
        services_new: z
          .number()
          .int()
          .meta({ description: "Services the origin's source lists for the first time." }),
        services_updated: z
          .number()
          .int()
          .meta({ description: "Services whose endpoints or prices changed." }),
        services_unchanged: z.number().int().meta({ description: "Services as stored (or kept as stored)." }),
        services_delisted: z.number().int().meta({ description: "Services the source no longer lists." }),
      })
      .meta({ description: "What the run wrote." }),
    manifest: manifestVerdictSchema,
    listed: z
      .array(listedSchema)
      .meta({ description: "Everything the origin's registered source lists now." }),
    registrations: z.array(registrationSchema).meta({ description: "The origin's registrations, checked." }),
  })
  .meta({ id: "Reindex", description: "What a re-index of an origin read and listed." });
