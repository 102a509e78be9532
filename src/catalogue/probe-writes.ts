import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { emitEvents } from "../events/emit";
import type { PaymentDrift, PaymentOption } from "../payments/types";
import type { ProbeResult } from "../probe/probe-endpoint";
import { storablePaymentOption } from "./payment-options";

/*
 * The probe hot path is one raw statement per step: through Prisma's query builder, loading a
 * target and recording a probe cost ~12 ms of CPU per endpoint (measured with bench/probe.ts),
 * as much as everything else a probe does ten times over.
 */

/**
 * What a sweep enqueues: every endpoint of a listed service (a delisted one cannot be called),
 * except a dead one probed within the last day (dead endpoints are probed daily). Endpoints whose
 * health changed in the last hour come first, so the sweep's per-host staggering probes them sooner.
 */
export async function listProbeTargets(db: Database): Promise<{ id: string; url: string }[]> {
  return db.$queryRaw<{ id: string; url: string }[]>`
    SELECT e.id::text AS id, e.url FROM endpoints e JOIN services s ON s.id = e.service_id
    WHERE s.status = 'listed'
      AND NOT (e.health = 'dead' AND e.last_probed_at > now() - interval '1 day')
    ORDER BY (e.health_changed_at > now() - interval '1 hour') IS TRUE DESC, e.id`;
}

export interface ProbeTargetRecord {
  id: string;
  method: string;
  url: string;
  lastProbedAt: Date | null;
  /** Every listing-origin option of the endpoint: what the directories claim it accepts. */
  listingOptions: PaymentOption[];
}

/** The endpoint a job names, or null when it is gone (a crawl removed it after the sweep). */
export async function loadProbeTarget(db: Database, endpointId: string): Promise<ProbeTargetRecord | null> {
  // Numerics as exact text: trim_scale turns price 0.010000 into "0.01", as the parser writes it.
  const rows = await db.$queryRaw<ProbeTargetRecord[]>`
    SELECT e.id::text AS id, e.method, e.url, e.last_probed_at AS "lastProbedAt",
      COALESCE((
        SELECT jsonb_agg(jsonb_build_object(
            'scheme', po.scheme, 'network', po.network, 'network_name', po.network_name, 'asset', po.asset,
            'asset_symbol', po.asset_symbol, 'amount_atomic', po.amount_atomic::text,
            'price_usdc', trim_scale(po.price_usdc)::text, 'pay_to', po.pay_to,
            'max_timeout_seconds', po.max_timeout_seconds, 'warnings', to_jsonb(po.warnings),
            'payable', coalesce(po.payable, false), 'unpayable_reasons', to_jsonb(po.unpayable_reasons))
          ORDER BY po.source_id, po.position)
        FROM payment_options po WHERE po.endpoint_id = e.id AND po.origin = 'listing'
      ), '[]'::jsonb) AS "listingOptions"
    FROM endpoints e WHERE e.id = ${endpointId}::uuid`;
  return rows[0] ?? null;
}

export interface ProbeRecord {
  endpointId: string;
  probedAt: Date;
  result: ProbeResult;
  drift: PaymentDrift[] | null;
}

/**
 * recorded: stored and the endpoint's summary updated; stale: stored as history only (a newer
 * probe is already summarised); gone: the endpoint no longer exists, nothing stored.
 */
export type RecordOutcome = "recorded" | "stale" | "gone";

/**
 * The probe's options replace the endpoint's probe-origin options only when the endpoint answered
 * with or without a challenge: a 5xx or a network error says nothing about what it accepts now.
 */
function replacesOptions(result: ProbeResult): boolean {
  return result.outcome === "challenge" || result.outcome === "no_challenge";
}

const jsonOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

interface EndpointVerdict {
  service_id: string;
  method: string;
  url: string;
  outcome: string | null;
}

/**
 * Stores one probe atomically (one transaction): its history row, the endpoint's last-probe columns
 * (lastVerifiedAt only for a valid challenge) and its probe-origin payment options, and an
 * endpoint.verification_changed event when the newest probe's outcome differs from the one before.
 * The summary moves only forward in time, so a slow probe finishing after a newer one cannot
 * overwrite it; the endpoint row is locked, so a crawl deleting it meanwhile waits or wins cleanly.
 */
export async function recordProbe(db: Database, record: ProbeRecord): Promise<RecordOutcome> {
  const { result, probedAt, endpointId } = record;
  const options = result.options
    .map(storablePaymentOption)
    .map((option, position) => ({ ...option, position }));
  const replace = replacesOptions(result);
  return inTransaction(db, async (tx) => {
    const [before] = await tx.$queryRaw<EndpointVerdict[]>`
      SELECT e.service_id::text, e.method, e.url,
             (SELECT p.outcome FROM endpoint_probes p WHERE p.endpoint_id = e.id ORDER BY p.probed_at DESC LIMIT 1) AS outcome
      FROM endpoints e WHERE e.id = ${endpointId}::uuid FOR UPDATE`;
    // Sibling data-modifying CTEs share one snapshot: the DELETE sees only the old probe options.
    const rows = await tx.$queryRaw<{ outcome: RecordOutcome }[]>`
      WITH target AS (
        SELECT id, last_probed_at IS NULL OR last_probed_at < ${probedAt}::timestamptz AS newest
        FROM endpoints WHERE id = ${endpointId}::uuid FOR UPDATE
      ), probe AS (
        INSERT INTO endpoint_probes (endpoint_id, probed_at, outcome, status_code, latency_ms, challenge_valid,
          x402_version, error, options, drift, checks, auth_only)
        SELECT id, ${probedAt}::timestamptz, ${result.outcome}, ${result.statusCode}::int, ${result.latencyMs}::float8,
          ${result.challengeValid}, ${result.x402Version}::int, ${result.error},
          ${result.outcome === "challenge" ? JSON.stringify(result.options) : null}::jsonb, ${jsonOrNull(record.drift)}::jsonb,
          ${JSON.stringify(result.checks)}::jsonb, ${result.traits.auth_only}
        FROM target
      ), summary AS (
        UPDATE endpoints e SET
          last_probed_at = CASE WHEN t.newest THEN ${probedAt}::timestamptz ELSE e.last_probed_at END,
          last_probe_status = CASE WHEN t.newest THEN ${result.statusCode}::int ELSE e.last_probe_status END,
          -- An older probe may still be the latest proof of a valid challenge.
          last_verified_at = CASE
            WHEN ${result.challengeValid} AND (e.last_verified_at IS NULL OR e.last_verified_at < ${probedAt}::timestamptz)
            THEN ${probedAt}::timestamptz ELSE e.last_verified_at END,
          -- Like the probe options: replaced by the newest answer that said anything about payment.
          probe_call_description = CASE WHEN t.newest AND ${replace}
            THEN ${result.call === null ? null : JSON.stringify(result.call)}::jsonb ELSE e.probe_call_description END,
          updated_at = now()
        FROM target t WHERE e.id = t.id
      ), removed AS (
        DELETE FROM payment_options po USING target t
        WHERE ${replace} AND t.newest AND po.endpoint_id = t.id AND po.origin = 'probe'
      ), added AS (
        INSERT INTO payment_options (id, endpoint_id, origin, source_id, position, scheme, network, network_name, asset,
          asset_symbol, amount_atomic, price_usdc, pay_to, max_timeout_seconds, warnings, payable, unpayable_reasons,
          observed_at, updated_at)
        SELECT gen_random_uuid(), t.id, 'probe', NULL, o.position, o.scheme, o.network, o.network_name, o.asset,
          o.asset_symbol, o.amount_atomic, o.price_usdc, o.pay_to, o.max_timeout_seconds,
          ARRAY(SELECT jsonb_array_elements_text(o.warnings)), o.payable,
          ARRAY(SELECT jsonb_array_elements_text(o.unpayable_reasons)), ${probedAt}::timestamptz, now()
        FROM target t, jsonb_to_recordset(${JSON.stringify(options)}::jsonb) AS o(position int, scheme text,
          network text, network_name text, asset text, asset_symbol text, amount_atomic numeric, price_usdc numeric,
          pay_to text, max_timeout_seconds int, warnings jsonb, payable boolean, unpayable_reasons jsonb)
        WHERE ${replace} AND t.newest
      )
      SELECT CASE WHEN newest THEN 'recorded' ELSE 'stale' END AS outcome FROM target`;
    const outcome = rows[0]?.outcome ?? "gone";
    // The verdict flipped: the newest probe's outcome differs from the one before it.
    if (outcome === "recorded" && before?.outcome && before.outcome !== result.outcome) {
      await emitEvents(tx, [
        {
          type: "endpoint.verification_changed",
          serviceId: before.service_id,
          data: {
            service_id: before.service_id,
            endpoint: { id: endpointId, method: before.method, url: before.url },
            old_outcome: before.outcome,
            new_outcome: result.outcome,
          },
        },
      ]);
    }
    return outcome;
  });
}

/** The endpoint of a listed service with this method and URL, if the catalogue has one. */
export async function findListedEndpoint(
  db: Database,
  method: string,
  url: string,
): Promise<{ id: string; serviceId: string } | null> {
  const rows = await db.$queryRaw<{ id: string; serviceId: string }[]>`
    SELECT e.id::text AS id, e.service_id::text AS "serviceId" FROM endpoints e JOIN services s ON s.id = e.service_id
    WHERE s.status = 'listed' AND e.url = ${url} AND upper(e.method) = ${method.toUpperCase()}
    ORDER BY e.id LIMIT 1`;
  return rows[0] ?? null;
}
