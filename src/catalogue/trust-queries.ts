import type { ObservedJson } from "../activity/figures";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import { type EventTransaction, emitEvents, type NewEvent } from "../events/emit";
import { Prisma } from "../generated/prisma/client";
import type { PaymentDrift } from "../payments/types";
import type { Grade } from "../trust/grade";
import type { Health } from "../trust/health";
import type { Check } from "../trust/types";
import type { Warning } from "../trust/warnings";
import { payToSharedWith } from "./endpoint-evidence";

/** The verdicts a list item shows of an endpoint or service (its detail adds reasons and checks). */
export interface ListedTrust {
  health: Health;
  grade: Grade | null;
  score: number | null;
  trustWarnings: Warning[];
}

/** ListedTrust's columns of the endpoint or service aliased `alias`. */
export function listedTrustColumns(alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.health, ${a}.grade, ${a}.score, ${a}.trust_warnings AS "trustWarnings"`;
}

/**
 * What the trust verdicts are computed from, per endpoint, gathered in one set-based statement
 * per batch of services over the probe history of a look-back window (HEALTH_DOWN_AFTER +
 * HEALTH_DEAD_AFTER + 1 day, at least 31 days for the pay_to history); and the one statement per
 * table that writes a batch's verdicts back. Times come back as Date; numbers as numbers; prices
 * as exact decimal text.
 */
export interface EndpointTrustFacts {
  id: string;
  serviceId: string;
  method: string;
  url: string;
  category: string | null;
  serviceFirstSeenAt: Date;
  health: Health;
  probes: number;
  latestAt: Date | null;
  runCount: number;
  runSince: Date | null;
  probes24h: number;
  failures24h: number;
  p99Ms24h: number | null;
  probes7d: number;
  uptime7d: number | null;
  p99Ms7d: number | null;
  zombieSince: Date | null;
  latestChecks: Check[] | null;
  latestAuthOnly: boolean;
  /** Drift of the latest challenge; null when nothing was compared. */
  drift: PaymentDrift[] | null;
  /** Whether the latest probe was a challenge, and whether a live option is payable. */
  liveChallenge: boolean;
  livePayable: boolean;
  livePrice: string | null;
  listedPrice: string | null;
  payToSince: Date | null;
  payToChangedAt: Date | null;
  payToShared: number | null;
  /** What the chain shows its pay_tos and its service's were paid (src/activity); null when no chain reads them. */
  observed: ObservedJson | null;
  serviceObserved: ObservedJson | null;
  /** The latest probes (newest first), for the event that reports a health change. */
  recent: { probed_at: string; outcome: string; status_code: number | null; challenge_valid: boolean }[];
}

const ZOMBIE = Prisma.sql`(p.status_code IN (404, 405, 410) OR (p.status_code BETWEEN 200 AND 299 AND p.outcome = 'no_challenge'))`;

/** The next `limit` listed services after `afterId`, in id order: the batches of a recompute. */
export async function listedServiceIds(
  db: Database,
  afterId: string | null,
  limit: number,
): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM services
    WHERE status = 'listed' AND (${afterId}::uuid IS NULL OR id > ${afterId}::uuid)
    ORDER BY id LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

/**
 * The cheapest USDC price of endpoint `e`'s payment options from `origin` ('probe': live;
 * 'listing'), written as a literal of the enum (a parameter would be text).
 */
const cheapestPrice = (origin: "probe" | "listing") =>
  Prisma.sql`(SELECT min(po.price_usdc) FROM payment_options po
    WHERE po.endpoint_id = e.id AND po.origin = ${Prisma.raw(`'${origin}'`)})`;

/**
 * The median live price of each category's endpoints among listed services: the lower middle
 * one (percentile_disc), an exact decimal.
 */
export async function categoryMedianPrices(db: Database): Promise<Map<string, string>> {
  const rows = await db.$queryRaw<{ category: string; median: string }[]>`
    SELECT s.category, trim_scale(percentile_disc(0.5) WITHIN GROUP (ORDER BY live.price))::text AS median
    FROM services s JOIN endpoints e ON e.service_id = s.id
    CROSS JOIN LATERAL (SELECT ${cheapestPrice("probe")} AS price) live
    WHERE s.status = 'listed' AND s.category IS NOT NULL AND live.price IS NOT NULL
    GROUP BY s.category`;
  return new Map(rows.map((row) => [row.category, row.median]));
}

/** The trust facts of the endpoints of `serviceIds` (listed services), in endpoint id order. */
export async function loadTrustFacts(
  db: Database,
  serviceIds: readonly string[],
  lookbackMs: number,
  now: Date,
): Promise<EndpointTrustFacts[]> {
  const from = new Date(now.getTime() - Math.max(lookbackMs, 31 * 86_400_000));
  // p is inlined where it is read (NOT MATERIALIZED): the per-endpoint reads below (pay_to, the
  // latest probes) then use the probes' (endpoint_id, probed_at) index rather than each scanning
  // every probe of the window, which made the query quadratic in the endpoints. It holds only the
  // batch's endpoints, so the grouped windows below read only their probes.
  return db.$queryRaw<EndpointTrustFacts[]>`
    WITH p AS NOT MATERIALIZED (
      SELECT * FROM endpoint_probes WHERE probed_at >= ${from} AND probed_at <= ${now} AND outcome <> 'refused'
        AND endpoint_id IN (SELECT id FROM endpoints WHERE service_id = ANY(${serviceIds}::uuid[]))
    ), marks AS (
      SELECT p.endpoint_id, max(p.probed_at) AS latest_at,
        max(p.probed_at) FILTER (WHERE p.challenge_valid) AS last_valid_at,
        max(p.probed_at) FILTER (WHERE NOT ${ZOMBIE}) AS last_sane_at
      FROM p GROUP BY p.endpoint_id
    ), stats AS (
      SELECT p.endpoint_id, count(*)::int AS probes,
        count(*) FILTER (WHERE p.probed_at > coalesce(m.last_valid_at, '-infinity'))::int AS run_count,
        min(p.probed_at) FILTER (WHERE p.probed_at > coalesce(m.last_valid_at, '-infinity')) AS run_since,
        min(p.probed_at) FILTER (WHERE p.probed_at > coalesce(m.last_sane_at, '-infinity')) AS zombie_since,
        count(*) FILTER (WHERE p.probed_at > ${now}::timestamptz - interval '24 hours')::int AS probes_24h,
        count(*) FILTER (WHERE p.probed_at > ${now}::timestamptz - interval '24 hours' AND NOT p.challenge_valid)::int AS failures_24h,
        percentile_cont(0.99) WITHIN GROUP (ORDER BY p.latency_ms)
          FILTER (WHERE p.probed_at > ${now}::timestamptz - interval '24 hours') AS p99_24h,
        count(*) FILTER (WHERE p.probed_at > ${now}::timestamptz - interval '7 days')::int AS probes_7d,
        avg((p.status_code < 500)::int) FILTER (WHERE p.probed_at > ${now}::timestamptz - interval '7 days') AS uptime_7d,
        percentile_cont(0.99) WITHIN GROUP (ORDER BY p.latency_ms)
          FILTER (WHERE p.probed_at > ${now}::timestamptz - interval '7 days') AS p99_7d
      FROM p JOIN marks m ON m.endpoint_id = p.endpoint_id GROUP BY p.endpoint_id
    ), latest AS (
      SELECT DISTINCT ON (p.endpoint_id) p.endpoint_id, p.outcome, p.checks, p.auth_only
      FROM p ORDER BY p.endpoint_id, p.probed_at DESC
    ), challenge AS (
      SELECT DISTINCT ON (p.endpoint_id) p.endpoint_id, p.drift, p.options
      FROM p WHERE p.outcome = 'challenge' ORDER BY p.endpoint_id, p.probed_at DESC
    ), pay_to AS (
      -- Since when the challenges have named the latest challenge's first pay_to, and when it replaced another.
      SELECT c.endpoint_id,
        (SELECT min(q.probed_at) FROM p q WHERE q.endpoint_id = c.endpoint_id AND q.outcome = 'challenge'
           AND q.probed_at > coalesce(o.other_at, '-infinity')) AS since,
        o.other_at
      FROM challenge c
      CROSS JOIN LATERAL (SELECT c.options -> 0 ->> 'pay_to' AS current) cur
      CROSS JOIN LATERAL (
        SELECT max(q.probed_at) AS other_at FROM p q
        WHERE q.endpoint_id = c.endpoint_id AND q.outcome = 'challenge' AND cur.current IS NOT NULL
          AND NOT coalesce(q.options @> jsonb_build_array(jsonb_build_object('pay_to', cur.current)), false)
      ) o
      WHERE cur.current IS NOT NULL
    )
    SELECT e.id::text, e.service_id::text AS "serviceId", e.method, e.url, s.category,
      s.first_seen_at AS "serviceFirstSeenAt", e.health,
      coalesce(st.probes, 0) AS probes, m.latest_at AS "latestAt",
      coalesce(st.run_count, 0) AS "runCount", st.run_since AS "runSince",
      coalesce(st.probes_24h, 0) AS "probes24h", coalesce(st.failures_24h, 0) AS "failures24h", st.p99_24h AS "p99Ms24h",
      coalesce(st.probes_7d, 0) AS "probes7d", st.uptime_7d::float8 AS "uptime7d", st.p99_7d AS "p99Ms7d",
      st.zombie_since AS "zombieSince", l.checks AS "latestChecks", coalesce(l.auth_only, false) AS "latestAuthOnly",
      CASE WHEN l.outcome = 'challenge' THEN c.drift END AS drift,
      coalesce(l.outcome = 'challenge', false) AS "liveChallenge",
      EXISTS (SELECT 1 FROM payment_options po WHERE po.endpoint_id = e.id AND po.origin = 'probe' AND po.payable) AS "livePayable",
      trim_scale(${cheapestPrice("probe")})::text AS "livePrice",
      trim_scale(${cheapestPrice("listing")})::text AS "listedPrice",
      pt.since AS "payToSince", CASE WHEN pt.other_at IS NOT NULL THEN pt.since END AS "payToChangedAt",
      ${payToSharedWith("e", "s")} AS "payToShared",
      (SELECT ea.observed FROM endpoint_activity ea WHERE ea.endpoint_id = e.id) AS observed,
      (SELECT sa.observed FROM service_activity sa WHERE sa.service_id = coalesce(s.canonical_id, s.id)) AS "serviceObserved",
      coalesce((SELECT json_agg(json_build_object('probed_at', r.probed_at, 'outcome', r.outcome,
          'status_code', r.status_code, 'challenge_valid', r.challenge_valid) ORDER BY r.probed_at DESC)
        FROM (SELECT * FROM p WHERE p.endpoint_id = e.id ORDER BY p.probed_at DESC LIMIT 5) r), '[]'::json) AS recent
    FROM endpoints e JOIN services s ON s.id = e.service_id
    LEFT JOIN marks m ON m.endpoint_id = e.id
    LEFT JOIN stats st ON st.endpoint_id = e.id
    LEFT JOIN latest l ON l.endpoint_id = e.id
    LEFT JOIN challenge c ON c.endpoint_id = e.id
    LEFT JOIN pay_to pt ON pt.endpoint_id = e.id
    WHERE s.status = 'listed' AND s.id = ANY(${serviceIds}::uuid[])
    ORDER BY e.id`;
}

export interface TrustVerdictRow {
  id: string;
  health: Health;
  healthReason: string;
  healthChanged: boolean;
  checks: Check[] | null;
  grade: string | null;
  score: number | null;
  warnings: string[];
}

/**
 * How long writing a batch's verdicts may take: an UPDATE of thousands of rows with their checks
 * can take seconds on a busy 2-core machine, beyond Prisma's default 5 s.
 */
const SAVE_VERDICTS = { timeoutMs: 10 * 60_000 };

/** Writes endpoints' and services' verdicts, one statement per table, with the events of the same change. */
export async function saveTrustVerdicts(
  db: Database,
  endpoints: TrustVerdictRow[],
  services: TrustVerdictRow[],
  events: NewEvent[],
  now: Date,
): Promise<void> {
  await inTransaction(
    db,
    async (tx) => {
      if (endpoints.length > 0) {
        const col = <T>(pick: (r: TrustVerdictRow) => T) => endpoints.map(pick);
        await tx.$executeRaw`
        UPDATE endpoints e SET health = n.health, health_reason = n.reason,
          health_changed_at = CASE WHEN n.changed THEN ${now}::timestamptz ELSE e.health_changed_at END,
          checks = n.checks, grade = n.grade, score = n.score,
          trust_warnings = ARRAY(SELECT jsonb_array_elements_text(n.warnings))
        FROM unnest(${col((r) => r.id)}::uuid[], ${col((r) => r.health)}::text[], ${col((r) => r.healthReason)}::text[],
          ${col((r) => r.healthChanged)}::boolean[], ${col((r) => JSON.stringify(r.checks))}::jsonb[],
          ${col((r) => r.grade)}::text[], ${col((r) => r.score)}::int[], ${col((r) => JSON.stringify(r.warnings))}::jsonb[])
          AS n(id, health, reason, changed, checks, grade, score, warnings)
        WHERE e.id = n.id`;
      }
      if (services.length > 0) {
        const col = <T>(pick: (r: TrustVerdictRow) => T) => services.map(pick);
        await tx.$executeRaw`
        UPDATE services s SET health = n.health, health_reason = n.reason,
          health_changed_at = CASE WHEN n.changed THEN ${now}::timestamptz ELSE s.health_changed_at END,
          grade = n.grade, score = n.score, trust_warnings = ARRAY(SELECT jsonb_array_elements_text(n.warnings))
        FROM unnest(${col((r) => r.id)}::uuid[], ${col((r) => r.health)}::text[], ${col((r) => r.healthReason)}::text[],
          ${col((r) => r.healthChanged)}::boolean[], ${col((r) => r.grade)}::text[], ${col((r) => r.score)}::int[],
          ${col((r) => JSON.stringify(r.warnings))}::jsonb[])
          AS n(id, health, reason, changed, grade, score, warnings)
        WHERE s.id = n.id`;
      }
      await emitEvents(tx as EventTransaction, events);
    },
    SAVE_VERDICTS,
  );
}

/** The services' current health, to tell which changed. */
export async function loadServiceHealth(db: Database, ids: string[]): Promise<Map<string, Health>> {
  const rows = await db.$queryRaw<{ id: string; health: Health }[]>`
    SELECT id::text, health FROM services WHERE id = ANY(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id, r.health]));
}
