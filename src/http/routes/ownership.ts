import type { Request, Router } from "express";
import type { OriginOwner } from "../../generated/prisma/client";
import { OWNER_CREDENTIAL_HEADER } from "../../ownership/credential";
import {
  deleteOwnerWebhookEndpoint,
  deregisterOrigin,
  originOwner,
  ownerOrganisation,
  saveReport,
} from "../../ownership/origin-owners";
import { verifiedOwner } from "../../ownership/owner-auth";
import { reportJson, type StoredReport, storedReport } from "../../ownership/owner-columns";
import {
  issueChallenge,
  type OwnershipDeps,
  OwnershipRefused,
  proveOwnership,
} from "../../ownership/ownership";
import { TOKEN_FILE_PATH } from "../../ownership/token-file";
import type { Registrar } from "../../registrations/registrar";
import { answerReindex } from "../../registrations/registrations-route";
import { createWebhookEndpoint } from "../../webhooks/webhook-endpoints";
import { HttpError } from "../errors";
import { jsonBody } from "../json-body";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import {
  originParams,
  ownerReportBody,
  ownershipProofBody,
  registrationIdParams,
} from "../schemas/ownership";
import { createWebhookEndpointBody } from "../schemas/webhooks";
import { parseInput } from "../validation";
import { type WebhookRouteDeps, webhookUrlVetter, withSecret } from "./webhooks";

export interface OwnershipRouteDeps {
  ownership: OwnershipDeps;
  /** Re-indexes the owner's origin (absent: this server takes no registrations, 503). */
  registrar?: Registrar;
  /** The owner's webhook endpoint is made like any (URL guard, sealed secret). */
  webhooks: Pick<WebhookRouteDeps, "allowedNetworks" | "secretKeys" | "resolve" | "logger">;
}

const refusal = (error: unknown): never => {
  if (error instanceof OwnershipRefused) throw new HttpError(error.status, error.message);
  throw error;
};

const identityJson = (owner: Pick<OriginOwner, "method" | "address" | "chainId">) => ({
  method: owner.method as "signature" | "token_file",
  address: owner.address,
  chain_id: owner.chainId,
});

function originOwnerJson(origin: string, owner: OriginOwner | null) {
  return {
    origin,
    owner_verified: owner !== null,
    owner: owner && identityJson(owner),
    verified_at: owner?.verifiedAt.toISOString() ?? null,
    deregistered_at: owner?.deregisteredAt?.toISOString() ?? null,
    owner_reported:
      owner?.reported && owner.reportedAt
        ? reportJson(storedReport.parse(owner.reported), owner.reportedAt)
        : null,
  };
}

/**
 * Proving ownership of a registration's origin, and what the origin's verified owner may do with
 * its credential (docs/api.md "Ownership"). The credential travels in X-Owner-Credential and is
 * never logged or echoed.
 */
export function ownershipRouter({ ownership, webhooks, registrar }: OwnershipRouteDeps): Router {
  const { db } = ownership;
  const router = apiRouter();
  const json = jsonBody("16kb");
  const vet = webhookUrlVetter(webhooks);

  /** The path's origin (no query is read). */
  const originOf = (req: Request): string => {
    parseInput(noQuery, req.query, "query");
    return parseInput(originParams, req.params, "path").origin;
  };
  /** The path's registration id (no query is read). */
  const registrationOf = (req: Request): string => {
    parseInput(noQuery, req.query, "query");
    return parseInput(registrationIdParams, req.params, "path").id;
  };

  /** The origin's owner acting with its credential, or a 401/403 saying what is missing. */
  const owner = async (req: Request, origin: string): Promise<OriginOwner> => {
    const credential = req.get(OWNER_CREDENTIAL_HEADER);
    if (credential === undefined)
      throw new HttpError(401, `Send the origin's ownership credential as ${OWNER_CREDENTIAL_HEADER}`);
    const found = await verifiedOwner(db, origin, credential);
    if (!found)
      throw new HttpError(
        403,
        `${OWNER_CREDENTIAL_HEADER} is not the current ownership credential of ${origin}`,
      );
    return found;
  };

  router
    .route("/v1/registrations/:id/ownership-challenge")
    .post(async (req, res) => {
      const id = registrationOf(req);
      const { challenge, token } = await issueChallenge(ownership, id, req.get("host") ?? "localhost").catch(
        refusal,
      );
      res
        .status(201)
        .set("Cache-Control", "no-store")
        .json({
          id: challenge.id,
          registration_id: challenge.registrationId,
          origin: challenge.origin,
          nonce: challenge.nonce,
          issued_at: challenge.issuedAt.toISOString(),
          expires_at: challenge.expiresAt.toISOString(),
          messages: challenge.messages,
          token_file: { url: new URL(TOKEN_FILE_PATH, challenge.origin).href, token },
        });
    })
    .all(methodNotAllowed);

  router
    .route("/v1/registrations/:id/ownership-proof")
    .post(json, async (req, res) => {
      const id = registrationOf(req);
      const body = parseInput(ownershipProofBody, req.body ?? {}, "body");
      const proof =
        body.method === "signature"
          ? {
              method: body.method,
              nonce: body.nonce,
              address: body.address ?? "",
              signature: body.signature ?? "",
            }
          : { method: body.method, nonce: body.nonce };
      const verified = await proveOwnership(ownership, id, proof).catch(refusal);
      res.set("Cache-Control", "no-store").json({
        origin: verified.origin,
        owner: identityJson(verified.owner),
        verified_at: verified.verifiedAt.toISOString(),
        owner_changed: verified.ownerChanged,
        credential: verified.credential,
      });
    })
    .all(methodNotAllowed);

  router
    .route("/v1/origin-owners/:origin")
    .get(async (req, res) => {
      const origin = originOf(req);
      res.set("Cache-Control", "no-store").json(originOwnerJson(origin, await originOwner(db, origin)));
    })
    .all(methodNotAllowed);

  router
    .route("/v1/origin-owners/:origin/report")
    .put(json, async (req, res) => {
      const origin = originOf(req);
      const body = parseInput(ownerReportBody, req.body ?? {}, "body");
      await owner(req, origin);
      const report: StoredReport = {
        description: body.description ?? null,
        category: body.category ?? null,
        tags: [...new Set(body.tags ?? [])],
        icon: body.icon ?? null,
      };
      const saved = await saveReport(db, origin, report, ownership.now());
      res.set("Cache-Control", "no-store").json(originOwnerJson(origin, saved));
    })
    .all(methodNotAllowed);

  router
    .route("/v1/origin-owners/:origin/deregister")
    .post(async (req, res) => {
      const origin = originOf(req);
      await owner(req, origin);
      const delisted = await deregisterOrigin(db, origin, ownership.now());
      res
        .set("Cache-Control", "no-store")
        .json({ origin, reason: "owner_request", delisted_service_ids: delisted });
    })
    .all(methodNotAllowed);

  router
    .route("/v1/origin-owners/:origin/reindex")
    .post(async (req, res) => {
      const origin = originOf(req);
      await owner(req, origin);
      if (registrar === undefined) throw new HttpError(503, "Registrations are not taken by this server");
      await answerReindex(registrar, origin, res);
    })
    .all(methodNotAllowed);

  router
    .route("/v1/origin-owners/:origin/webhook-endpoint")
    .post(json, async (req, res) => {
      const origin = originOf(req);
      const body = parseInput(createWebhookEndpointBody, req.body ?? {}, "body");
      await owner(req, origin);
      const url = await vet(body.url);
      const organisationId = await ownerOrganisation(db, origin);
      const outcome = await createWebhookEndpoint(
        db,
        webhooks.secretKeys,
        { organisationId, environment: "live" },
        {
          url,
          description: body.description,
          enabledEvents: body.enabled_events,
          redactMetadata: body.redact_metadata,
          origin,
        },
      );
      if ("refused" in outcome)
        throw new HttpError(
          409,
          `${origin} has a webhook endpoint already: delete it first (DELETE on this path)`,
        );
      res.status(201).set("Cache-Control", "no-store").json(withSecret(outcome.created));
    })
    .delete(async (req, res) => {
      const origin = originOf(req);
      if (!(await deleteOwnerWebhookEndpoint(db, await owner(req, origin))))
        throw new HttpError(404, `${origin} has no webhook endpoint`);
      res.status(204).end();
    })
    .all(methodNotAllowed);

  return router;
}
