import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../accounts/api-keys";
import { Prisma } from "../generated/prisma/client";
import { EVENT_KINDS, type EventData, type EventType } from "./kinds";

/**
 * The outbox's one way in. Call it inside the transaction that makes the change, with that
 * transaction (`inTransaction(db, async (tx) => …)`, src/db/transaction.ts). The event rows and a delivery row per subscribed webhook endpoint
 * then commit or roll back with the change, so no event is lost and none is invented.
 *
 *   await emitEvents(tx, [{ type: "service.listed", serviceId, data: { service } }]);
 *   await emitEvents(tx, [{ type: "payment_order.created", owner, data }]); // an owned kind
 */
export type EventTransaction = Pick<Prisma.TransactionClient, "$executeRaw">;

/** Who an owned event belongs to: the organisation and environment of a key. */
export type EventOwner = KeyOwner;

export type NewEvent = {
  [T in EventType]: {
    type: T;
    data: EventData<T>;
    /** Lets GET /v1/events filter by service_id. */
    serviceId?: string;
    /** Required for owned kinds (they reach only this organisation and environment); none for public ones. */
    owner?: EventOwner;
    /** Deliver to this endpoint only (the test event), not to every subscribed one. */
    onlyEndpointId?: string;
  };
}[EventType];

/**
 * Notified (on commit) by a transaction that owes deliveries, so delivering processes claim them
 * at once rather than at their next poll.
 */
export const DELIVERIES_DUE_CHANNEL = "webhook_deliveries_due";

function checked(event: NewEvent) {
  const kind = EVENT_KINDS[event.type];
  const owned = kind.visibility === "owned";
  if (owned !== (event.owner !== undefined)) {
    throw new Error(
      `${event.type} is ${kind.visibility}: ${owned ? "an owner is required" : "it has no owner"}`,
    );
  }
  return { ...event, version: kind.version, data: kind.data.parse(event.data) };
}

/** Writes the events and their deliveries in one statement; returns how many deliveries it owes. */
export async function emitEvents(tx: EventTransaction, events: readonly NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = events.map(checked);
  const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
  // One delivery per endpoint that is enabled, belongs to the owner (owned kinds), selects the
  // kind or "*" and, for an origin owner's endpoint, concerns that origin (its services, its
  // ownership); the test event goes to its one endpoint, enabled or not.
  const deliveries = await tx.$executeRaw(
    Prisma.sql`
      WITH n AS (
        SELECT * FROM unnest(${column(() => randomUUID())}::uuid[], ${column((r) => r.type)}::text[],
                             ${column((r) => r.version)}::int[],
                             ${column((r) => r.owner?.organisationId ?? null)}::uuid[],
                             ${column((r) => r.owner?.environment ?? null)}::environment[],
                             ${column((r) => r.serviceId ?? null)}::uuid[],
                             ${column((r) => JSON.stringify(r.data))}::jsonb[],
                             ${column((r) => r.onlyEndpointId ?? null)}::uuid[])
          WITH ORDINALITY AS n(id, type, version, organisation_id, environment, service_id, data, only_endpoint, ord)
      ), e AS (
        INSERT INTO events (id, type, version, organisation_id, environment, service_id, data)
        SELECT id, type, version, organisation_id, environment, service_id, data FROM n ORDER BY ord
        RETURNING seq, id
      )
      INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, updated_at)
      SELECT gen_random_uuid(), w.id, e.seq, now()
      FROM e JOIN n ON n.id = e.id
      JOIN webhook_endpoints w ON CASE
        WHEN n.only_endpoint IS NOT NULL THEN w.id = n.only_endpoint
        ELSE w.disabled_at IS NULL
          AND (n.organisation_id IS NULL OR (w.organisation_id = n.organisation_id AND w.environment = n.environment))
          AND ('*' = ANY(w.enabled_events) OR n.type = ANY(w.enabled_events))
          AND (w.origin IS NULL OR n.data->>'origin' = w.origin
            OR (n.service_id IS NOT NULL AND service_at_origin(n.service_id, w.origin)))
      END`,
  );
  // Sent when the transaction commits (never for a rollback), once however many emits it made.
  if (deliveries > 0) await tx.$executeRaw(Prisma.sql`SELECT pg_notify(${DELIVERIES_DUE_CHANNEL}, '')`);
  return deliveries;
}
