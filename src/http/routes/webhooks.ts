import type { Router } from "express";
import type { Database } from "../../db/prisma-client";
import { inTransaction } from "../../db/transaction";
import { emitEvents } from "../../events/emit";
import type { WebhookEndpoint } from "../../generated/prisma/client";
import type { Logger } from "../../logging/logger";
import { type HostResolver, systemResolver } from "../../probe/resolve-target";
import { AddressPolicy } from "../../probe/ssrf-guard";
import { getDeliveries, retryDelivery } from "../../webhooks/deliveries";
import type { SecretKeyRing } from "../../webhooks/secret-keys";
import { vetWebhookUrl } from "../../webhooks/url-guard";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointWithSecret,
  getWebhookEndpoint,
  getWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../../webhooks/webhook-endpoints";
import { HttpError } from "../errors";
import { jsonBody } from "../json-body";
import { requestOwner } from "../request-guard";
import { apiRouter } from "../router";
import { noQuery } from "../schemas/common";
import {
  createWebhookEndpointBody,
  deliveryIdParams,
  deliveryListQuery,
  updateWebhookEndpointBody,
  webhookEndpointIdParams,
} from "../schemas/webhooks";
import { parseInput } from "../validation";

export interface WebhookRouteDeps {
  db: Database;
  logger: Logger;
  allowedNetworks: readonly string[];
  /** Seals the secrets of new endpoints and rotations (WEBHOOK_SECRET_KEY). */
  secretKeys: SecretKeyRing;
  resolve?: HostResolver;
  /** The clock of rotations and disabling (tests move it). */
  now?: () => Date;
  /** Wakes this process's delivery worker after a test or retry was queued. */
  notify?: () => void;
}

function endpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    enabled_events: endpoint.enabledEvents,
    redact_metadata: endpoint.redactMetadata,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
  };
}

export const withSecret = ({ endpoint, secret }: EndpointWithSecret) => ({
  ...endpointJson(endpoint),
  secret,
});

/** A webhook URL's normal form, or a 400 saying why it is refused (the details go to the debug log). */
export function webhookUrlVetter(
  deps: Pick<WebhookRouteDeps, "allowedNetworks" | "resolve" | "logger">,
): (url: string) => Promise<string> {
  const policy = new AddressPolicy(deps.allowedNetworks);
  return async (url) => {
    const check = await vetWebhookUrl(url, policy, deps.resolve ?? systemResolver);
    if (check.ok) return check.target.url.href;
    deps.logger.debug({ detail: check.detail }, "webhook URL refused");
    throw new HttpError(400, `url: ${check.reason}`);
  };
}

function notFound(id: string): HttpError {
  return new HttpError(404, `No webhook endpoint with id ${id} in this organisation and environment`);
}

/** The webhook endpoints of the calling key's organisation and environment (scope webhooks:write). */
export function webhooksRouter(deps: WebhookRouteDeps): Router {
  const { db, secretKeys } = deps;
  const router = apiRouter();
  const json = jsonBody();
  const now = deps.now ?? (() => new Date());
  const vet = webhookUrlVetter(deps);

  router.post("/v1/webhook-endpoints", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const body = parseInput(createWebhookEndpointBody, req.body ?? {}, "body");
    const url = await vet(body.url);
    const owner = requestOwner(res);
    const outcome = await createWebhookEndpoint(db, secretKeys, owner, {
      url,
      description: body.description,
      enabledEvents: body.enabled_events,
      redactMetadata: body.redact_metadata,
    });
    if ("refused" in outcome) {
      const { plan, allowed } = outcome.refused;
      throw new HttpError(
        403,
        `The ${plan} plan allows ${allowed} webhook endpoint${allowed === 1 ? "" : "s"} per environment, and ` +
          `this ${owner.environment} environment has them: delete one, or change plan (GET /v1/plans)`,
      );
    }
    res.status(201).set("Cache-Control", "no-store").json(withSecret(outcome.created));
  });

  router.get("/v1/webhook-endpoints", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const items = await getWebhookEndpoints(db, requestOwner(res));
    res.set("Cache-Control", "no-store").json({ items: items.map(endpointJson) });
  });

  router.get("/v1/webhook-endpoints/:id", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(webhookEndpointIdParams, req.params, "path");
    const endpoint = await getWebhookEndpoint(db, requestOwner(res), id);
    if (!endpoint) throw notFound(id);
    res.set("Cache-Control", "no-store").json(endpointJson(endpoint));
  });

  router.patch("/v1/webhook-endpoints/:id", json, async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(webhookEndpointIdParams, req.params, "path");
    const body = parseInput(updateWebhookEndpointBody, req.body ?? {}, "body");
    const url = body.url === undefined ? undefined : await vet(body.url);
    const updated = await updateWebhookEndpoint(
      db,
      requestOwner(res),
      id,
      {
        url,
        description: body.description,
        enabledEvents: body.enabled_events,
        redactMetadata: body.redact_metadata,
        disabled: body.disabled,
      },
      now(),
    );
    if (!updated) throw notFound(id);
    res.set("Cache-Control", "no-store").json(endpointJson(updated));
  });

  router.delete("/v1/webhook-endpoints/:id", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(webhookEndpointIdParams, req.params, "path");
    if (!(await deleteWebhookEndpoint(db, requestOwner(res), id))) throw notFound(id);
    res.status(204).end();
  });

  router.post("/v1/webhook-endpoints/:id/rotate-secret", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(webhookEndpointIdParams, req.params, "path");
    const rotated = await rotateWebhookSecret(db, secretKeys, requestOwner(res), id, now());
    if (!rotated) throw notFound(id);
    res.set("Cache-Control", "no-store").json(withSecret(rotated));
  });

  router.post("/v1/webhook-endpoints/:id/test", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id } = parseInput(webhookEndpointIdParams, req.params, "path");
    const owner = requestOwner(res);
    const endpoint = await getWebhookEndpoint(db, owner, id);
    if (!endpoint) throw notFound(id);
    if (endpoint.disabledAt) throw new HttpError(409, "This webhook endpoint is disabled; enable it first");
    await inTransaction(db, (tx) =>
      emitEvents(tx, [
        {
          type: "webhook_endpoint.test",
          owner,
          onlyEndpointId: id,
          data: { webhook_endpoint_id: id, message: "A test delivery asked for over the API." },
        },
      ]),
    );
    deps.notify?.();
    res.status(202).set("Cache-Control", "no-store").json({ queued: true });
  });

  router.get("/v1/webhook-endpoints/:id/deliveries", async (req, res) => {
    const { limit } = parseInput(deliveryListQuery, req.query, "query");
    const { id } = parseInput(webhookEndpointIdParams, req.params, "path");
    const owner = requestOwner(res);
    if (!(await getWebhookEndpoint(db, owner, id))) throw notFound(id);
    const rows = await getDeliveries(db, owner, id, limit);
    res.set("Cache-Control", "no-store").json({
      items: rows.map((row) => ({
        id: row.id,
        event_id: row.event.id,
        event_type: row.event.type,
        status: row.status,
        next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
        created_at: row.createdAt.toISOString(),
        attempts: row.log.map((attempt) => ({
          attempted_at: attempt.attemptedAt.toISOString(),
          duration_ms: attempt.durationMs,
          response_status: attempt.responseStatus,
          error: attempt.error,
          succeeded: attempt.succeeded,
        })),
      })),
    });
  });

  router.post("/v1/webhook-endpoints/:id/deliveries/:deliveryId/retry", async (req, res) => {
    parseInput(noQuery, req.query, "query");
    const { id, deliveryId } = parseInput(deliveryIdParams, req.params, "path");
    if (!(await retryDelivery(db, requestOwner(res), id, deliveryId))) {
      throw new HttpError(
        404,
        `No delivery ${deliveryId} of webhook endpoint ${id} in this organisation and environment`,
      );
    }
    deps.notify?.();
    res.status(202).set("Cache-Control", "no-store").json({ queued: true });
  });

  return router;
}
