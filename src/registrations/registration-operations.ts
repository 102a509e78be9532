import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { errorResponse as error, json } from "../http/openapi/accounts-operations";
import { noQuery } from "../http/schemas/common";
import {
  originParams,
  registrationBody,
  registrationIdParams,
  registrationRefusedSchema,
  registrationSchema,
  reindexSchema,
} from "./schemas";

/** The OpenAPI operations of registrations and re-indexes (registrations-route.ts). */
export function registrationOperations(): RouteConfig[] {
  const invalid = { 400: error("A parameter or the body is invalid; the message names it.") };
  return [
    {
      method: "post",
      path: "/v1/registrations",
      operationId: "register",
      summary: "Register a paid URL or an origin",
      description:
        "Answered once the check is done (within the probe's time limit, a few seconds at the default politeness): " +
        "the origin's manifest is read and the URL probed through the SSRF guard; what answers a valid x402 challenge " +
        "or is listed by the manifest is stored under the source kind registered (service.listed events) and " +
        "answered 201 with state listed. A URL that answers no valid challenge, or an origin whose manifest lists " +
        "nothing, is 422 with the reason. Submitting the same URL (and method) or origin again returns the same " +
        "registration (a listed one as it is; a refused one is checked again). State pending: another check of the " +
        "origin held it up for 30 s; GET it later. Without a key: REGISTRATIONS_ANONYMOUS_PER_HOUR per address.",
      request: { query: noQuery, body: { content: { "application/json": { schema: registrationBody } } } },
      responses: {
        201: json("The registration, new or submitted before: listed (or pending).", registrationSchema),
        ...invalid,
        422: json("Not listed; message and registration.reason say why.", registrationRefusedSchema),
      },
    },
    {
      method: "get",
      path: "/v1/registrations/{id}",
      operationId: "getRegistration",
      summary: "A registration: its state and what it listed",
      request: { params: registrationIdParams, query: noQuery },
      responses: {
        200: json("The registration.", registrationSchema),
        ...invalid,
        404: error("No registration has this id."),
      },
    },
    {
      method: "post",
      path: "/v1/origins/{origin}/reindex",
      operationId: "reindexOrigin",
      summary: "Re-read a registered origin's manifest and re-probe its registered URLs now",
      description:
        "New resources are listed; resources the manifest no longer lists (or registered URLs no longer answering " +
        "a challenge) are delisted from the origin's registered source only; nothing is delisted when the manifest " +
        "or a URL could not be read (status partial or failed). Price changes are endpoint.price_changed events. " +
        "REINDEX_PER_ORIGIN_PER_HOUR per origin, whoever asks.",
      request: { params: originParams, query: noQuery },
      responses: {
        200: json("What the re-index read and lists now.", reindexSchema),
        ...invalid,
        404: error("The origin is not registered."),
        409: error("A check of this origin is under way; Retry-After says when to ask again."),
      },
    },
  ];
}
