import type { KeyOwner } from "../accounts/api-keys";
import type { Database } from "../db/prisma-client";
import { type EventJson, eventJson } from "../events/event-queries";
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";

/** A claimed delivery with what sending it needs. */
export interface DueDelivery {
  id: string;
  createdAt: Date;
  /** This attempt's number (1 for the first). */
  attempts: number;
  endpoint: WebhookEndpoint;
  event: EventJson;
}

/**
 * Claims up to `count` due deliveries of enabled endpoints and leases them for `leaseMs` (longer
 * than an attempt may take): a process that dies mid-attempt leaves the row due again when the
 * lease ends, so another worker (or this one after a restart) delivers it: at least once.
 * `claimedBy` (the claimer session's pid) lets the rows of a dead process be released sooner
 * (claimer-session.ts); null: only the lease.
 */
export async function claimDueDeliveries(
  db: Database,
  count: number,
  leaseMs: number,
  claimedBy: number | null = null,
): Promise<DueDelivery[]> {
  const claimed = await db.$queryRaw<{ id: string }[]>`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d
      JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND w.disabled_at IS NULL
      ORDER BY d.next_attempt_at
      LIMIT ${count}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE webhook_deliveries d
    SET next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', attempts = d.attempts + 1,
        claimed_by = ${claimedBy}::int, updated_at = now()
    FROM due WHERE d.id = due.id
    RETURNING d.id`;
  if (claimed.length === 0) return [];
  const rows = await db.webhookDelivery.findMany({
    where: { id: { in: claimed.map((row) => row.id) } },
    include: { endpoint: true, event: true },
  });
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    attempts: row.attempts,
    endpoint: row.endpoint,
    event: eventJson({
      ...row.event,
      created_at: row.event.createdAt,
      data: row.event.data as Record<string, unknown>,
    }),
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
 * the retry window is over). Success clears the endpoint's failure window.
 */
export async function recordAttempt(
  tx: Prisma.TransactionClient,
  delivery: DueDelivery,
  attempt: AttemptRecord,
  retryAt: Date | null,
): Promise<void> {
  await tx.webhookDeliveryAttempt.create({ data: { deliveryId: delivery.id, ...attempt } });
  const settled = attempt.succeeded
    ? { status: "succeeded", nextAttemptAt: null }
    : retryAt
      ? { status: "pending", nextAttemptAt: retryAt }
      : { status: "failed", nextAttemptAt: null };
  await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { ...settled, claimedBy: null } });
  if (attempt.succeeded) {
    // Written only when it was failing: concurrent successes to one endpoint then never queue
    // on its row lock.
    await tx.webhookEndpoint.updateMany({
      where: { id: delivery.endpoint.id, failingSince: { not: null } },
      data: { failingSince: null },
    });
  } else {
    await tx.webhookEndpoint.updateMany({
      where: { id: delivery.endpoint.id, failingSince: null },
      data: { failingSince: attempt.attemptedAt },
    });
  }
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
