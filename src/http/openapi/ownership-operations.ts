import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { OWNER_CREDENTIAL_HEADER } from "../../ownership/credential";
import { reindexSchema } from "../../registrations/schemas";
import { noQuery } from "../schemas/common";
import {
  deregistrationSchema,
  originOwnerSchema,
  originParams,
  ownerReportBody,
  ownershipChallengeSchema,
  ownershipProofBody,
  ownershipProofSchema,
  registrationIdParams,
} from "../schemas/ownership";
import { createWebhookEndpointBody, webhookEndpointWithSecretSchema } from "../schemas/webhooks";
import { errorResponse, json } from "./accounts-operations";
import { body } from "./webhooks-operations";

const invalid = { 400: errorResponse("A parameter or the body is invalid; the message says which.") };

/** The owner's credential, for the routes an origin's verified owner acts on. */
const ownerHeaders = z.object({
  [OWNER_CREDENTIAL_HEADER]: z.string().meta({
    description:
      "The origin's ownership credential (xown_…) from its latest verified proof. Missing: 401; not this origin's current credential: 403.",
  }),
});

/** Ownership of origins (src/http/routes/ownership.ts, docs/api.md "Ownership"). */
export function ownershipOperations(): RouteConfig[] {
  const asOwner = { params: originParams, query: noQuery, headers: ownerHeaders };
  return [
    {
      method: "post",
      path: "/v1/registrations/{id}/ownership-challenge",
      operationId: "createOwnershipChallenge",
      summary: "Ask for a challenge that proves ownership of a registration's origin",
      description:
        "A sign-in-with-x (CAIP-122) message for each pay_to the origin's probed payment challenges name (EIP-4361 " +
        "text for EVM, its Solana form for solana:*), and a token to publish at /.well-known/x402-catalogue.txt. " +
        "Its nonce proves ownership once, within OWNERSHIP_CHALLENGE_TTL.",
      request: { params: registrationIdParams, query: noQuery },
      responses: {
        201: json("The challenge; the token is shown only here.", ownershipChallengeSchema),
        ...invalid,
        404: errorResponse("No registration has this id."),
      },
    },
    {
      method: "post",
      path: "/v1/registrations/{id}/ownership-proof",
      operationId: "proveOwnership",
      summary: "Prove ownership with a challenge: a pay_to's signature, or the token file",
      description:
        "A signature is verified as EIP-191 for EVM pay_tos and Ed25519 for Solana ones; the token file is fetched " +
        "through the probes' SSRF guard. A proof that verifies makes its key the origin's owner (another key's " +
        "ownership ends; origin.owner_changed) and returns the ownership credential.",
      request: { params: registrationIdParams, query: noQuery, body: body(ownershipProofBody) },
      responses: {
        200: json("The origin's owner and its credential, shown only here.", ownershipProofSchema),
        ...invalid,
        403: errorResponse(
          "Refused: the address is not a pay_to the challenge names, the signature does not verify, or the token file " +
            "lacks the token (or holds one issued for another origin).",
        ),
        404: errorResponse("No registration, or no challenge of it with this nonce."),
        409: errorResponse("The challenge's nonce was already used."),
        410: errorResponse("The challenge expired."),
        422: errorResponse("The token file could not be read (status, size, redirect, network)."),
      },
    },
    {
      method: "get",
      path: "/v1/origin-owners/{origin}",
      operationId: "getOriginOwner",
      summary: "Whether an origin has a verified owner, and what it reports",
      request: { params: originParams, query: noQuery },
      responses: { 200: json("The origin's ownership.", originOwnerSchema), ...invalid },
    },
    {
      method: "put",
      path: "/v1/origin-owners/{origin}/report",
      operationId: "putOwnerReport",
      summary: "Correct the self-reported fields of the origin's services, as their owner",
      description:
        "Description, category, tags and icon; shown as owner_reported beside the crawled values. Replaces the " +
        "previous report (fields left out are cleared).",
      request: { ...asOwner, body: body(ownerReportBody) },
      responses: { 200: json("The origin's ownership with the report.", originOwnerSchema), ...invalid },
    },
    {
      method: "post",
      path: "/v1/origin-owners/{origin}/deregister",
      operationId: "deregisterOrigin",
      summary: "Delist the origin's services, as their owner",
      description:
        "Every listed service with an endpoint at the origin is delisted with reason owner_request (service.delisted " +
        "events); its history is kept and crawls leave it delisted.",
      request: asOwner,
      responses: { 200: json("What was delisted.", deregistrationSchema), ...invalid },
    },
    {
      method: "post",
      path: "/v1/origin-owners/{origin}/reindex",
      operationId: "reindexOwnedOrigin",
      summary: "Re-index the origin now, as its owner",
      description:
        "The re-index of POST /v1/origins/{origin}/reindex, asked with the ownership credential instead of a key; " +
        "the same REINDEX_PER_ORIGIN_PER_HOUR limit per origin.",
      request: asOwner,
      responses: {
        200: json("What the re-index read and lists now.", reindexSchema),
        ...invalid,
        409: errorResponse("A check of this origin is under way; Retry-After says when to ask again."),
        429: errorResponse("The origin's re-indexes for this hour are spent; Retry-After says when."),
      },
    },
    {
      method: "post",
      path: "/v1/origin-owners/{origin}/webhook-endpoint",
      operationId: "createOwnerWebhookEndpoint",
      summary: "Subscribe a webhook endpoint to the origin's events, as their owner",
      description:
        "Deliveries as for /v1/webhook-endpoints (Standard Webhooks, signed with the secret in this answer), of the " +
        "events of the origin's services and of its ownership only. One per origin; a new owner's proof removes it.",
      request: { ...asOwner, body: body(createWebhookEndpointBody) },
      responses: {
        201: json("The endpoint with its secret.", webhookEndpointWithSecretSchema),
        ...invalid,
        409: errorResponse("The origin has a webhook endpoint already."),
      },
    },
    {
      method: "delete",
      path: "/v1/origin-owners/{origin}/webhook-endpoint",
      operationId: "deleteOwnerWebhookEndpoint",
      summary: "Remove the origin's webhook endpoint, as their owner",
      request: asOwner,
      responses: {
        204: { description: "Removed." },
        ...invalid,
        404: errorResponse("The origin has no webhook endpoint."),
      },
    },
  ];
}
