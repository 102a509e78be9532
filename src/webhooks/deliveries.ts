import type { KeyOwner } from "../accounts/api-keys";
import type { Database } from "../db/prisma-client";
import { type EventJson, eventJson } from "../events/event-queries";
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import type { Environment } from "../generated/prisma/enums";
import { type PreviousSecret, readPreviousSecrets } from "./secrets";

/** What sending to an endpoint needs (sealed secrets, redaction) and its failure window. */
export type DeliveryEndpoint = Pick<
  WebhookEndpoint,
  "id" | "organisationId" | "environment" | "url" | "redactMetadata" | "secret" | "failingSince"
> & { previousSecrets: PreviousSecret[] };

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
  previous_secrets: unknown;
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
           w.organisation_id::text, w.environment, w.url, w.redact_metadata, w.secret, w.previous_secrets,
           w.failing_since,
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
      previousSecrets: readPreviousSecrets(row.previous_secrets),
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

/** A finished attempt and what it decided: settle the delivery, or retry it at `retryAt`. */
export interface SettledAttempt {
  delivery: DueDelivery;
  attempt: AttemptRecord;
  /** When to try again; null: no retry (succeeded, or the retry window is over). */
  retryAt: Date | null;
}

const settledStatus = ({ attempt, retryAt }: SettledAttempt) =>
  attempt.succeeded ? "succeeded" : retryAt ? "pending" : "failed";

/**
 * Logs attempts and settles their deliveries (succeeded, retried at `retryAt`, or failed) in one
 * statement, so a worker pays one commit for many deliveries. A delivery deleted meanwhile (its
 * endpoint was) is skipped rather than failing the others: only rows the update still found get
 * a log row. Should one delivery appear twice (retried by hand while in flight), its latest
 * attempt settles it and both are logged. Each endpoint's failure window is then replayed over
 * its attempts in time order: a success closes it, a failure opens it when closed. The endpoint
 * row is written only when its window changes, so concurrent successes never queue on its lock.
 */
export async function recordAttempts(
  db: Pick<Prisma.TransactionClient, "$executeRaw">,
  settled: readonly SettledAttempt[],
): Promise<void> {
  if (settled.length === 0) return;
  const column = <T>(pick: (row: SettledAttempt) => T) => settled.map(pick);
  await db.$executeRaw`
    WITH n AS (
      SELECT * FROM unnest(${column((s) => s.delivery.id)}::uuid[], ${column((s) => s.delivery.endpoint.id)}::uuid[],
                           ${column((s) => s.attempt.attemptedAt)}::timestamptz[],
                           ${column((s) => s.attempt.durationMs)}::int[],
                           ${column((s) => s.attempt.responseStatus)}::int[], ${column((s) => s.attempt.error)}::text[],
                           ${column((s) => s.attempt.succeeded)}::boolean[], ${column(settledStatus)}::text[],
                           ${column((s) => s.retryAt)}::timestamptz[])
        AS n(delivery_id, endpoint_id, attempted_at, duration_ms, response_status, error, succeeded, status, retry_at)
    ), latest AS (
      SELECT DISTINCT ON (delivery_id) * FROM n ORDER BY delivery_id, attempted_at DESC
    ), settled AS (
      UPDATE webhook_deliveries d
      SET status = latest.status, next_attempt_at = latest.retry_at, claimed_by = NULL, updated_at = now()
      FROM latest WHERE d.id = latest.delivery_id
      RETURNING d.id
    ), logged AS (
      INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, duration_ms, response_status, error, succeeded)
      SELECT n.delivery_id, n.attempted_at, n.duration_ms, n.response_status, n.error, n.succeeded
      FROM n JOIN settled ON settled.id = n.delivery_id
    ), windows AS (
      -- opened: the first failure after the endpoint's last success in this batch (null: none).
      SELECT endpoint_id, succeeded_at,
             min(attempted_at) FILTER (WHERE NOT succeeded AND attempted_at > coalesce(succeeded_at, '-infinity'))
               AS opened
      FROM (SELECT *, max(attempted_at) FILTER (WHERE succeeded) OVER (PARTITION BY endpoint_id) AS succeeded_at
            FROM n) attempts
      GROUP BY endpoint_id, succeeded_at
    )
    -- The window becomes "opened": closed by a success, reopened by a later failure, or opened by
    -- failures alone if it was closed. Conditions are on the row as locked, not as first read.
    UPDATE webhook_endpoints w SET failing_since = windows.opened, updated_at = now()
    FROM windows
    WHERE w.id = windows.endpoint_id
      AND CASE
        WHEN windows.opened IS NULL THEN w.failing_since IS NOT NULL
        WHEN windows.succeeded_at IS NULL THEN w.failing_since IS NULL
        ELSE w.failing_since IS DISTINCT FROM windows.opened
      END`;
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
