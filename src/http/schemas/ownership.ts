import { z } from "zod";
import { canonicalOrigin } from "../../ownership/origins";
import { ownerIdentitySchema } from "../../ownership/owner-identity";

/** Requests and answers of ownership (src/http/routes/ownership.ts, docs/api.md "Ownership"). */

export const registrationIdParams = z.strictObject({
  id: z.guid({ error: "must be a registration id (a UUID)" }).meta({ description: "The registration's id." }),
});

export const originParams = z.strictObject({
  origin: z
    .string()
    .max(300)
    .transform((text, context) => {
      const origin = canonicalOrigin(text);
      if (origin === null) {
        context.addIssue({
          code: "custom",
          message: "must be an http(s) origin, scheme://host[:port], URL-encoded",
        });
        return z.NEVER;
      }
      return origin;
    })
    .meta({
      description: "The origin, URL-encoded: https%3A%2F%2Fapi.example.com.",
      example: "https://api.example.com",
    }),
});

const nonce = z.string().regex(/^[0-9a-f]{32}$/, "must be the challenge's nonce (32 hex digits)");

export const ownershipProofBody = z
  .strictObject({
    nonce: nonce.meta({ description: "The nonce of the challenge this proof uses (once)." }),
    method: z.enum(["signature", "token_file"]).meta({
      description:
        "signature: a pay_to signed its message of the challenge; token_file: the origin serves the challenge's token at /.well-known/x402-catalogue.txt.",
    }),
    address: z.string().max(100).optional().meta({ description: "signature: the pay_to that signed." }),
    signature: z.string().max(1000).optional().meta({
      description: "signature: EIP-191 as 0x hex for EVM; Ed25519 as base58 (or 0x hex) for Solana.",
    }),
  })
  .meta({
    example: {
      nonce: "6f1c0e3a9b2d4c5e8f7a6b5c4d3e2f10",
      method: "signature",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
      signature: "0x5c3b…1b",
    },
  })
  .superRefine((body, context) => {
    for (const field of ["address", "signature"] as const) {
      if (body.method === "signature" && body[field] === undefined)
        context.addIssue({ code: "custom", path: [field], message: "is required with method signature" });
      if (body.method === "token_file" && body[field] !== undefined)
        context.addIssue({ code: "custom", path: [field], message: "is not read with method token_file" });
    }
  });

const optionalText = (max: number, description: string) =>
  z.string().trim().min(1).max(max).nullable().optional().meta({ description });

export const ownerReportBody = z
  .strictObject({
    description: optionalText(2000, "What the services do, in the owner's words."),
    category: optionalText(100, "The owner's category."),
    tags: z
      .array(z.string().trim().toLowerCase().min(1).max(50))
      .max(20)
      .optional()
      .meta({ description: "The owner's tags (lower-cased), at most 20." }),
    icon: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .max(2048)
      .nullable()
      .optional()
      .meta({ description: "An icon's URL." }),
  })
  .meta({
    example: {
      description: "Real-time stock quotes, by the people who run them.",
      category: "Finance",
      tags: ["stocks", "quotes"],
      icon: "https://api.example.com/icon.png",
    },
  });

const timestamp = z.string().meta({ format: "date-time" });

export const signableMessageSchema = z
  .strictObject({
    address: z
      .string()
      .meta({ description: "The pay_to that may sign (EIP-55 for EVM, base58 for Solana)." }),
    chain_id: z.string().meta({ description: "The CAIP-2 chain the pay_to is paid on." }),
    type: z
      .enum(["eip191", "ed25519"])
      .meta({ description: "How to sign: EIP-191 personal_sign, or Ed25519." }),
    message: z.string().meta({ description: "The CAIP-122 (sign-in-with-x) text to sign, exactly." }),
  })
  .meta({ id: "OwnershipMessage" });

export const ownershipChallengeSchema = z
  .strictObject({
    id: z.string().meta({ description: "The challenge's id." }),
    registration_id: z.string().meta({ description: "The registration whose origin it proves." }),
    origin: z.string().meta({ description: "The origin it proves." }),
    nonce: z.string().meta({ description: "Send it with the proof; it is used once." }),
    issued_at: timestamp.meta({ description: "When it was issued (the messages' Issued At)." }),
    expires_at: timestamp.meta({
      description: "After this the challenge proves nothing (OWNERSHIP_CHALLENGE_TTL).",
    }),
    messages: z.array(signableMessageSchema).meta({
      description:
        "One message per pay_to the origin's probed payment challenges name ([]: none, use the token file).",
    }),
    token_file: z
      .strictObject({
        url: z.string().meta({ description: "Where the origin publishes the token." }),
        token: z.string().meta({ description: "The line to publish there; shown only here." }),
      })
      .meta({
        description:
          "The other way to prove it: the origin serves the token in this file (text, one token a line).",
      }),
  })
  .meta({ id: "OwnershipChallenge" });

export const ownershipProofSchema = z
  .strictObject({
    origin: z.string().meta({ description: "The origin proved." }),
    owner: ownerIdentitySchema,
    verified_at: timestamp.meta({ description: "When the proof verified." }),
    owner_changed: z
      .boolean()
      .meta({ description: "false: the same key proved it again (a new credential only)." }),
    credential: z.string().meta({
      description:
        "xown_…: send it as X-Owner-Credential to act as the owner. Shown only here; a new proof replaces it.",
    }),
  })
  .meta({ id: "OwnershipProof" });

export const ownerReportSchema = z
  .strictObject({
    description: z.string().nullable().meta({ description: "What the services do, in the owner's words." }),
    category: z.string().nullable().meta({ description: "The owner's category." }),
    tags: z.array(z.string()).meta({ description: "The owner's tags, lower case." }),
    icon: z.string().nullable().meta({ description: "An icon's URL." }),
    reported_at: timestamp.meta({ description: "When the owner reported it." }),
  })
  .meta({ id: "OwnerReport", description: "What the verified owner reports, beside the crawled values." });

export const originOwnerSchema = z
  .strictObject({
    origin: z.string().meta({ description: "The origin (scheme://host[:port])." }),
    owner_verified: z.boolean().meta({ description: "Someone proved they own it." }),
    owner: ownerIdentitySchema.nullable().meta({ description: "Who, and how; null when nobody did." }),
    verified_at: timestamp.nullable().meta({ description: "When the owner's latest proof verified." }),
    deregistered_at: timestamp.nullable().meta({ description: "When the owner had its services delisted." }),
    owner_reported: ownerReportSchema.nullable(),
  })
  .meta({ id: "OriginOwner" });

export const deregistrationSchema = z
  .strictObject({
    origin: z.string().meta({ description: "The origin whose services were delisted." }),
    reason: z.literal("owner_request").meta({ description: "The services' delist_reason." }),
    delisted_service_ids: z.array(z.string()).meta({ description: "The service rows delisted now." }),
  })
  .meta({ id: "OriginDeregistration" });
