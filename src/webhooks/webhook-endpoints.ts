import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../accounts/api-keys";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { WebhookEndpoint } from "../generated/prisma/client";
import type { SecretKeyRing } from "./secret-keys";
import { afterRotation, newWebhookSecret, previousSecretsJson, readPreviousSecrets } from "./secrets";

/** Webhook endpoints of one organisation and environment; every query filters on both. */

export interface WebhookEndpointInput {
  url: string;
  description: string;
  enabledEvents: string[];
  redactMetadata: boolean;
  /** Only events of this origin (an origin owner's endpoint, src/ownership). */
  origin?: string;
}

export interface WebhookEndpointChanges extends Partial<WebhookEndpointInput> {
  disabled?: boolean;
}

const owned = (owner: KeyOwner, id: string) => ({
  id,
  organisationId: owner.organisationId,
  environment: owner.environment,
});

/** An endpoint with its new secret in plain text: what the creation or rotation answers, once. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** Created, or refused because the organisation's plan allows no more in this environment. */
export type CreatedWebhookEndpoint =
  | { created: EndpointWithSecret }
  | { refused: { plan: string; allowed: number } };

/**
 * Creates an endpoint within the organisation's plan: at most `plans.webhook_endpoints` per
 * environment. Creations of one owner take turns (a transaction lock), so two racing requests
 * cannot both take the last place.
 */
export function createWebhookEndpoint(
  db: Database,
  keys: SecretKeyRing,
  owner: KeyOwner,
  input: WebhookEndpointInput,
): Promise<CreatedWebhookEndpoint> {
  return inTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook-endpoints:${owner.organisationId}:${owner.environment}`}, 0))`;
    const { plan } = await tx.organisation.findUniqueOrThrow({
      where: { id: owner.organisationId },
      select: { plan: { select: { name: true, id: true, webhookEndpoints: true } } },
    });
    const existing = await tx.webhookEndpoint.count({
      where: { organisationId: owner.organisationId, environment: owner.environment },
    });
    if (existing >= plan.webhookEndpoints) {
      return { refused: { plan: plan.name || plan.id, allowed: plan.webhookEndpoints } };
    }
    // The id is chosen here: the sealed secret is bound to it.
    const id = randomUUID();
    const secret = newWebhookSecret();
    const endpoint = await tx.webhookEndpoint.create({
      data: { id, ...owner, ...input, secret: keys.seal(secret, id) },
    });
    return { created: { endpoint, secret } };
  });
}

export function getWebhookEndpoints(db: Database, owner: KeyOwner): Promise<WebhookEndpoint[]> {
  return db.webhookEndpoint.findMany({
    where: { organisationId: owner.organisationId, environment: owner.environment },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
}

export function getWebhookEndpoint(
  db: Database,
  owner: KeyOwner,
  id: string,
): Promise<WebhookEndpoint | null> {
  return db.webhookEndpoint.findFirst({ where: owned(owner, id) });
}

export async function updateWebhookEndpoint(
  db: Database,
  owner: KeyOwner,
  id: string,
  changes: WebhookEndpointChanges,
  now: Date,
): Promise<WebhookEndpoint | null> {
  const { disabled, ...fields } = changes;
  const { count } = await db.webhookEndpoint.updateMany({
    where: owned(owner, id),
    data: {
      ...fields,
      // Enabling starts a fresh failure window; disabling twice keeps the first time.
      ...(disabled === false ? { disabledAt: null, failingSince: null } : {}),
    },
  });
  if (disabled === true) {
    await db.webhookEndpoint.updateMany({
      where: { ...owned(owner, id), disabledAt: null },
      data: { disabledAt: now },
    });
  }
  return count === 0 ? null : getWebhookEndpoint(db, owner, id);
}

export async function deleteWebhookEndpoint(db: Database, owner: KeyOwner, id: string): Promise<boolean> {
  const { count } = await db.webhookEndpoint.deleteMany({ where: owned(owner, id) });
  return count > 0;
}

/**
 * A new secret; the one it replaces keeps signing for 24 hours from `now` (the injected clock),
 * as do the ones rotated out before it that still sign. The row is locked, so two rotations at
 * once both keep what the other rotated out.
 */
export async function rotateWebhookSecret(
  db: Database,
  keys: SecretKeyRing,
  owner: KeyOwner,
  id: string,
  now: Date,
): Promise<EndpointWithSecret | null> {
  return inTransaction(db, async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM webhook_endpoints WHERE id = ${id}::uuid FOR UPDATE`;
    const endpoint = await tx.webhookEndpoint.findFirst({ where: owned(owner, id) });
    if (!endpoint) return null;
    const secret = newWebhookSecret();
    const previous = afterRotation(endpoint.secret, readPreviousSecrets(endpoint.previousSecrets), now);
    const rotated = await tx.webhookEndpoint.update({
      where: { id },
      data: { secret: keys.seal(secret, id), previousSecrets: previousSecretsJson(previous) },
    });
    return { endpoint: rotated, secret };
  });
}
