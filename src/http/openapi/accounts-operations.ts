import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { routePolicy } from "../../accounts/route-policy";
import {
  apiKeyIdParams,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyBody,
  createdApiKeySchema,
  usageListSchema,
  usageQuery,
} from "../schemas/accounts";
import { errorBodySchema, noQuery } from "../schemas/common";

export const BEARER_SCHEME = "bearerAuth";

export const bearerSecurityScheme = {
  type: "http" as const,
  scheme: "bearer",
  description:
    "An API key (`xcat_live_…` or `xcat_test_…`): `Authorization: Bearer <key>`. Public routes answer without one; " +
    "a key sent anyway must be valid and hold the route's scope. Keys are limited per minute by their " +
    "organisation's plan, anonymous callers per address; answers carry RateLimit-Limit, -Remaining, -Reset and -Policy.",
};

export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: errorBodySchema } },
});

export const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});

/** The keys and usage operations (src/http/routes/accounts.ts). */
export function accountOperations(): RouteConfig[] {
  const invalid = { 400: errorResponse("A parameter or the body is invalid; the message names it.") };
  return [
    {
      method: "post",
      path: "/v1/api-keys",
      operationId: "createApiKey",
      summary: "Create an API key",
      description:
        "In the calling key's organisation and environment, with scopes the calling key holds. The key is in this " +
        "answer only: it is stored as a hash.",
      request: { query: noQuery, body: { content: { "application/json": { schema: createApiKeyBody } } } },
      responses: { 201: json("The new key, shown this once.", createdApiKeySchema), ...invalid },
    },
    {
      method: "get",
      path: "/v1/api-keys",
      operationId: "listApiKeys",
      summary: "List the API keys of this organisation and environment",
      description:
        "Newest first, revoked keys included; a prefix and the last four characters, never the key.",
      request: { query: noQuery },
      responses: { 200: json("The keys.", apiKeyListSchema), ...invalid },
    },
    {
      method: "delete",
      path: "/v1/api-keys/{id}",
      operationId: "revokeApiKey",
      summary: "Revoke an API key",
      description: "Refused on every replica from the next request on. Revoking twice keeps the first time.",
      request: { params: apiKeyIdParams, query: noQuery },
      responses: {
        200: json("The revoked key.", apiKeySchema),
        ...invalid,
        404: errorResponse("No key with this id in this organisation and environment."),
      },
    },
    {
      method: "get",
      path: "/v1/usage",
      operationId: "getUsage",
      summary: "Requests and exported CSV rows per key, day and route group",
      description:
        "This organisation and environment only, oldest day first. Other API processes' latest counts arrive " +
        "within USAGE_FLUSH_SECONDS.",
      request: { query: usageQuery },
      responses: { 200: json("Usage rows.", usageListSchema), ...invalid },
    },
  ];
}

/** Adds the security requirement, scope and refusals of an operation from the enforced route policy. */
export function secured(route: RouteConfig): RouteConfig {
  const policy = routePolicy(route.path, route.method.toUpperCase());
  const scopes = policy.scope ? [policy.scope] : [];
  const keyed = { [BEARER_SCHEME]: scopes };
  return {
    ...route,
    security: policy.access === "protected" ? [keyed] : [{}, keyed],
    responses: {
      ...route.responses,
      401: errorResponse(
        policy.access === "protected"
          ? "No key, or a malformed, unknown or revoked key (WWW-Authenticate: Bearer)."
          : "A malformed, unknown or revoked key was sent (WWW-Authenticate: Bearer).",
      ),
      ...(policy.scope ? { 403: errorResponse(`The key lacks the scope ${policy.scope}.`) } : {}),
      429: errorResponse(
        policy.group === "exports"
          ? "Over the rate limit, the daily CSV allowance or the exports one caller or server streams at once; Retry-After says when to try again."
          : "Over the rate limit; Retry-After says when to try again.",
      ),
    },
  };
}
