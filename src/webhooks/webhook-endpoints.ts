import type { KeyOwner } from "../accounts/api-keys";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { WebhookEndpoint } from "../generated/prisma/client";
import { newWebhookSecret, ROTATION_GRACE_MS } from "./secrets";

/** Webhook endpoints of one organisation and environment; every query filters on both. */

export interface WebhookEndpointInput {
  url: string;
  description: string;
  enabledEvents: string[];
  redactMetadata: boolean;
}

export interface WebhookEndpointChanges extends Partial<WebhookEndpointInput> {
  disabled?: boolean;
}

const owned = (owner: KeyOwner, id: string) => ({
  id,
  organisationId: owner.organisationId,
  environment: owner.environment,
});

/** Created, or refused because the organisation's plan allows no more in this environment. */
export type CreatedWebhookEndpoint =
  | { created: WebhookEndpoint }
  | { refused: { plan: string; allowed: number } };

/**
 * Creates an endpoint within the organisation's plan: at most `plans.webhook_endpoints` per
 * environment. Creations of one owner take turns (a transaction lock), so two racing requests
 * cannot both take the last place.
 */
export function createWebhookEndpoint(
  db: Database,
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
    const created = await tx.webhookEndpoint.create({
      data: { ...owner, ...input, secret: newWebhookSecret() },
    });
    return { created };
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
 * A new secret; the one it replaces keeps signing for 24 hours from `now` (the injected clock).
 * Rotating again within those hours replaces the previous secret with the current one.
 */
export async function rotateWebhookSecret(
  db: Database,
  owner: KeyOwner,
  id: string,
  now: Date,
): Promise<WebhookEndpoint | null> {
  return inTransaction(db, async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: owned(owner, id) });
    if (!endpoint) return null;
    return tx.webhookEndpoint.update({
      where: { id },
      data: {
        secret: newWebhookSecret(),
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_GRACE_MS),
      },
    });
  });
}
