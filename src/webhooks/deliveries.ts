import type { KeyOwner } from "../accounts/api-keys";
import type { Database } from "../db/prisma-client";
import { type EventJson, eventJson } from "../events/event-queries";
import { Prisma, type WebhookEndpoint } from "../generated/prisma/client";
import type { Environment } from "../generated/prisma/enums";

/** What sending to an endpoint needs (secrets, redaction) and its failure window. */
export type DeliveryEndpoint = Pick<
  WebhookEndpoint,
  | "id"
  | "organisationId"
  | "environment"
  | "url"
  | "redactMetadata"
  | "secret"
  | "previousSecret"
  | "previousSecretExpiresAt"
  | "failingSince"
>;

/** A claimed delivery with what sending it needs. */
export interface DueDelivery {
  id: string;
  createdAt: Date;
  /** This attempt's number (1 for the first). */
  attempts: number;
  endpoint: DeliveryEndpoint;
  event: EventJson;
}

interface ClaimedRow {
  id: string;
  created_at: Date;
  attempts: number;
  endpoint_id: string;
  organisation_id: string;
  environment: Environment;
  url: string;
  redact_metadata: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  event_id: string;
  type: string;
  version: number;
  event_created_at: Date;
  data: Record<string, unknown>;
}

/**
 * Claims up to `count` due deliveries of enabled endpoints and leases them for `leaseMs` (longer
 * than an attempt may take): a process that dies mid-attempt leaves the row due again when the
 * lease ends, so another worker (or this one after a restart) delivers it: at least once.
 * `claimedBy` (the claimer session's pid) lets the rows of a dead process be released sooner
 * (claimer-session.ts); null: only the lease. One statement claims and reads what sending needs:
 * a delivery's bookkeeping, not the HTTP request, was most of its cost.
 */
export async function claimDueDeliveries(
  db: Database,
  count: number,
  leaseMs: number,
  claimedBy: number | null = null,
): Promise<DueDelivery[]> {
  const rows = await db.$queryRaw<ClaimedRow[]>`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND w.disabled_at IS NULL
      ORDER BY d.next_attempt_at
      LIMIT ${count}
      FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d
      SET next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', attempts = d.attempts + 1,
          claimed_by = ${claimedBy}::int, updated_at = now()
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.created_at, d.attempts, d.endpoint_id, d.event_seq
    )
    SELECT c.id::text, c.created_at, c.attempts, w.id::text AS endpoint_id,
           w.organisation_id::text, w.environment, w.url, w.redact_metadata, w.secret, w.previous_secret,
           w.previous_secret_expires_at, w.failing_since,
           e.id::text AS event_id, e.type, e.version, e.created_at AS event_created_at, e.data
    FROM claimed c
    JOIN webhook_endpoints w ON w.id = c.endpoint_id
    JOIN events e ON e.seq = c.event_seq`;
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    attempts: row.attempts,
    endpoint: {
      id: row.endpoint_id,
      organisationId: row.organisation_id,
      environment: row.environment,
      url: row.url,
      redactMetadata: row.redact_metadata,
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretExpiresAt: row.previous_secret_expires_at,
      failingSince: row.failing_since,
    },
    event: eventJson({ ...row, id: row.event_id, created_at: row.event_created_at }),
  }));
}

export interface AttemptRecord {
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
}

/**
 * Logs an attempt and settles the delivery: succeeded, retried at `retryAt`, or failed (null:
 * the retry window is over). Success clears the endpoint's failure window; a failure opens it
 * if it was not open. One statement, so it needs no transaction of its own; the endpoint row is
 * written only when its window changes, so concurrent successes never queue on its lock.
 */
export async function recordAttempt(
  db: Pick<Prisma.TransactionClient, "$executeRaw">,
  delivery: DueDelivery,
  attempt: AttemptRecord,
  retryAt: Date | null,
): Promise<void> {
  const status = attempt.succeeded ? "succeeded" : retryAt ? "pending" : "failed";
  await db.$executeRaw`
    WITH logged AS (
      INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, duration_ms, response_status, error, succeeded)
      VALUES (${delivery.id}::uuid, ${attempt.attemptedAt}, ${attempt.durationMs}, ${attempt.responseStatus}::int,
              ${attempt.error}, ${attempt.succeeded})
    ), settled AS (
      UPDATE webhook_deliveries
      SET status = ${status}, next_attempt_at = ${attempt.succeeded ? null : retryAt}::timestamptz,
          claimed_by = NULL, updated_at = now()
      WHERE id = ${delivery.id}::uuid
    )
    UPDATE webhook_endpoints
    SET failing_since = ${attempt.succeeded ? null : attempt.attemptedAt}::timestamptz, updated_at = now()
    WHERE id = ${delivery.endpoint.id}::uuid
      AND ${attempt.succeeded ? Prisma.sql`failing_since IS NOT NULL` : Prisma.sql`failing_since IS NULL`}`;
}

/** The endpoint's deliveries, newest first, each with its attempts. */
export async function getDeliveries(db: Database, owner: KeyOwner, endpointId: string, limit: number) {
  return db.webhookDelivery.findMany({
    where: {
      endpoint: { id: endpointId, organisationId: owner.organisationId, environment: owner.environment },
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: limit,
    include: { event: { select: { id: true, type: true } }, log: { orderBy: { attemptedAt: "asc" } } },
  });
}

/** Makes a delivery due now again (whatever its state); false when the owner has no such delivery. */
export async function retryDelivery(
  db: Database,
  owner: KeyOwner,
  endpointId: string,
  deliveryId: string,
): Promise<boolean> {
  const { count } = await db.webhookDelivery.updateMany({
    where: {
      id: deliveryId,
      endpoint: { id: endpointId, organisationId: owner.organisationId, environment: owner.environment },
    },
    data: { status: "pending", nextAttemptAt: new Date() },
  });
  return count > 0;
}
