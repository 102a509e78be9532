import { Prisma } from "../generated/prisma/client";
import { isEntryMember } from "./catalogue-entries";

/**
 * Our own measurements from live probes, per endpoint and per service (all its endpoints), beside
 * the directory's claims. Definitions:
 * - probes: probes made in the window (refusals included).
 * - uptime %: share of attempted probes that got an HTTP answer with status below 500. A probe the
 *   SSRF guard refused before sending anything is not an attempt and counts neither way; a
 *   refused redirect counts as up (the endpoint answered).
 * - p50 / p99: continuous percentiles of latency (first DNS lookup to end of answer) over the
 *   probes that got an answer; timeouts and network errors are in the uptime, not the latency.
 * - verified: a valid x402 challenge within the last 24 hours.
 */

export const WINDOWS = [
  { key: "24h", interval: "24 hours" },
  { key: "7d", interval: "7 days" },
  { key: "30d", interval: "30 days" },
] as const;

export type WindowKey = (typeof WINDOWS)[number]["key"];

export interface ProbeWindowStats {
  probes: number;
  uptimePct: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface LastProbe {
  at: Date;
  statusCode: number | null;
  outcome: string;
  challengeValid: boolean;
  /** Why it did not verify, as the prober recorded it (timeout, no x402 challenge, 500…); null when it did. */
  error: string | null;
}

/** A difference between what a listing claims and what a live challenge asked (src/payments/drift.ts). */
export interface DriftDifference {
  kind: "price" | "network" | "asset" | "pay_to";
  network: string;
  claimed: string | null;
  observed: string | null;
  message: string;
}

/** The differences the endpoint's latest live challenge showed, and when; null when it showed none. */
export interface EndpointDrift {
  seenAt: Date;
  differences: DriftDifference[];
}

/**
 * The drift of the endpoint `endpoint` (an alias) at its latest challenge up to `asOf`, as JSON
 * {seenAt, differences} (timestamp as text); NULL when that challenge matched its listings (or
 * nothing was compared). A later challenge that matches clears it.
 */
export function latestDriftJson(endpoint: string, asOf: Prisma.Sql): Prisma.Sql {
  const e = Prisma.raw(endpoint);
  return Prisma.sql`(SELECT CASE WHEN jsonb_array_length(dp.drift) > 0
      THEN json_build_object('seenAt', dp.probed_at, 'differences', dp.drift) END
    FROM endpoint_probes dp
    WHERE dp.endpoint_id = ${e}.id AND dp.outcome = 'challenge' AND dp.probed_at <= ${asOf}
    ORDER BY dp.probed_at DESC LIMIT 1)`;
}

/** Decodes latestDriftJson. */
export function driftOf(
  json: { seenAt: string; differences: DriftDifference[] } | null,
): EndpointDrift | null {
  return json === null ? null : { seenAt: new Date(json.seenAt), differences: json.differences };
}

export interface ProbeSummary {
  windows: Record<WindowKey, ProbeWindowStats>;
  lastProbe: LastProbe | null;
  lastVerifiedAt: Date | null;
  verified: boolean;
}

/** A valid x402 challenge within this long makes an endpoint (and its service) verified. */
export const VERIFIED_WITHIN_MS = 24 * 60 * 60 * 1000;

/**
 * The aggregates of probe rows `p` that meet `condition`, as columns probes, attempted, up, p50
 * and p99 with `suffix` appended (the definitions at the top of this file).
 */
export function probeAggregates(condition: Prisma.Sql, suffix: string): Prisma.Sql {
  const column = (name: string) => Prisma.raw(`"${name}${suffix}"`);
  const answered = Prisma.sql`${condition} AND p.status_code IS NOT NULL AND p.latency_ms IS NOT NULL`;
  return Prisma.sql`
    count(*) FILTER (WHERE ${condition})::int AS ${column("probes")},
    count(*) FILTER (WHERE ${condition} AND NOT (p.outcome = 'refused' AND p.status_code IS NULL))::int
      AS ${column("attempted")},
    count(*) FILTER (WHERE ${condition} AND p.status_code < 500)::int AS ${column("up")},
    percentile_cont(0.5) WITHIN GROUP (ORDER BY p.latency_ms) FILTER (WHERE ${answered}) AS ${column("p50")},
    percentile_cont(0.99) WITHIN GROUP (ORDER BY p.latency_ms) FILTER (WHERE ${answered}) AS ${column("p99")}`;
}

/** Aggregates of every window over probe rows `p` (already limited to the widest window). */
export function windowColumns(asOf: Prisma.Sql): Prisma.Sql {
  return Prisma.join(
    WINDOWS.map(({ key, interval }) =>
      probeAggregates(Prisma.sql`p.probed_at > ${asOf} - ${Prisma.raw(`interval '${interval}'`)}`, `_${key}`),
    ),
    ",",
  );
}

/** The options a valid challenge of probe `p` offered, as rows `o(value)` (none for any other probe). */
export const CHALLENGE_OPTIONS = Prisma.sql`jsonb_array_elements(CASE WHEN p.challenge_valid
  AND jsonb_typeof(p.options) = 'array' THEN p.options END) AS o(value)`;

/** The USDC price of option `o` as a number when the parser wrote an exact decimal; else NULL. */
export const CHALLENGE_PRICE = Prisma.sql`CASE WHEN o.value->>'price_usdc' ~ '^[0-9]{1,30}(\.[0-9]{1,18})?$'
  THEN (o.value->>'price_usdc')::numeric END`;

/** Probes of the widest window up to `asOf`, via the (endpoint_id, probed_at) index. */
export function probeRange(asOf: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`p.probed_at > ${asOf} - interval '30 days' AND p.probed_at <= ${asOf}`;
}

/**
 * One probe summary as a JSON object (decoded by probeSummaryOf), so that a detail answer carries
 * every summary in one statement. `probesOf` names the endpoints whose probes count: a condition on
 * `pe` (endpoints; callers' aliases must differ). Windows and the last probe come from the same rows of endpoint_probes.
 */
function summaryJson(lastVerifiedAt: Prisma.Sql, probesOf: Prisma.Sql, asOf: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
    SELECT json_build_object('last_verified_at', ${lastVerifiedAt}, 'last_at', lp.probed_at,
      'last_status', lp.status_code, 'last_outcome', lp.outcome, 'last_valid', lp.challenge_valid,
      'last_error', lp.error,
      'windows', to_json(w))
    FROM (
      SELECT ${windowColumns(asOf)}
      FROM endpoints pe JOIN endpoint_probes p ON p.endpoint_id = pe.id
      WHERE ${probesOf} AND ${probeRange(asOf)}
    ) w
    LEFT JOIN (
      SELECT p.probed_at, p.status_code, p.outcome, p.challenge_valid, p.error
      FROM endpoints pe
      CROSS JOIN LATERAL (
        SELECT * FROM endpoint_probes p WHERE p.endpoint_id = pe.id AND p.probed_at <= ${asOf}
        ORDER BY p.probed_at DESC LIMIT 1
      ) p
      WHERE ${probesOf}
      ORDER BY p.probed_at DESC LIMIT 1
    ) lp ON TRUE)`;
}

/** The probe summary of the endpoint `endpoint` (an alias) up to `asOf` (a timestamptz expression), as JSON for probeSummaryOf. */
export function endpointProbeJson(endpoint: string, asOf: Prisma.Sql): Prisma.Sql {
  const e = Prisma.raw(endpoint);
  return summaryJson(Prisma.sql`${e}.last_verified_at`, Prisma.sql`pe.id = ${e}.id`, asOf);
}

/**
 * Ids of the endpoints the entry whose primary is `entry` (an alias) shows: one row per method and
 * URL, the primary's first (as the detail merges them), so a call probed twice counts once.
 */
export function entryShownEndpoints(entry: string): Prisma.Sql {
  return Prisma.sql`SELECT DISTINCT ON (se.method, se.url) se.id
    FROM services m JOIN endpoints se ON se.service_id = m.id
    WHERE ${isEntryMember("m", entry)}
    ORDER BY se.method, se.url, (m.id = ${Prisma.raw(entry)}.id) DESC, m.first_seen_at, m.id, se.position, se.id`;
}

/**
 * The probe summary of the catalogue entry whose primary is `entry` (an alias) over the endpoints
 * the entry shows, as JSON for probeSummaryOf. Two sources listing the same method and URL give two
 * endpoint rows, each probed; the entry shows that endpoint once (the first row's, as the detail
 * merges them), so only that row's probes count: a call is never counted twice.
 */
export function entryProbeJson(entry: string, asOf: Prisma.Sql): Prisma.Sql {
  const ofEntry = Prisma.sql`pe.id IN (${entryShownEndpoints(entry)})`;
  return summaryJson(
    Prisma.sql`(SELECT max(pe.last_verified_at) FROM endpoints pe WHERE ${ofEntry})`,
    ofEntry,
    asOf,
  );
}

/** What endpointProbeJson and entryProbeJson build; timestamps arrive as ISO 8601 text. */
export interface ProbeJson {
  last_verified_at: string | null;
  last_at: string | null;
  last_status: number | null;
  last_outcome: string | null;
  last_valid: boolean | null;
  last_error: string | null;
  windows: Record<string, number | null>;
}

/**
 * Measured figures are shown to a fixed precision: latencies to 0.1 ms, uptime to 0.01 % (a
 * percentile of timings is not exact to the nanosecond, and 0.8069529999920633 ms reads as noise).
 */
function roundTo<T extends number | null>(value: T, decimals: number): T {
  if (value === null) return value;
  const scale = 10 ** decimals;
  return (Math.round(value * scale) / scale) as T;
}

const dateOrNull = (text: string | null): Date | null => (text === null ? null : new Date(text));

/** The figures of probeAggregates' columns (named with `suffix`), rounded as shown. */
export function probeFiguresOf(columns: Record<string, number | null>, suffix: string): ProbeWindowStats {
  const attempted = columns[`attempted${suffix}`] ?? 0;
  return {
    probes: columns[`probes${suffix}`] ?? 0,
    uptimePct: attempted === 0 ? null : roundTo((100 * (columns[`up${suffix}`] ?? 0)) / attempted, 2),
    p50Ms: roundTo(columns[`p50${suffix}`] ?? null, 1),
    p99Ms: roundTo(columns[`p99${suffix}`] ?? null, 1),
  };
}

export function probeSummaryOf(json: ProbeJson, asOf: Date): ProbeSummary {
  const windows = {} as Record<WindowKey, ProbeWindowStats>;
  for (const { key } of WINDOWS) windows[key] = probeFiguresOf(json.windows, `_${key}`);
  const lastAt = dateOrNull(json.last_at);
  const lastProbe =
    lastAt === null
      ? null
      : {
          at: lastAt,
          statusCode: json.last_status,
          outcome: json.last_outcome ?? "",
          challengeValid: json.last_valid === true,
          error: json.last_error,
        };
  const lastVerifiedAt = dateOrNull(json.last_verified_at);
  const verified = lastVerifiedAt !== null && lastVerifiedAt.getTime() > asOf.getTime() - VERIFIED_WITHIN_MS;
  return { windows, lastProbe, lastVerifiedAt, verified };
}
