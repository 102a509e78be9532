import { queryRows, type ReadPool } from "../db/read-pool";
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
}

export interface ProbeSummary {
  windows: Record<WindowKey, ProbeWindowStats>;
  lastProbe: LastProbe | null;
  lastVerifiedAt: Date | null;
  verified: boolean;
}

/** A valid x402 challenge within this long makes an endpoint (and its service) verified. */
export const VERIFIED_WITHIN_MS = 24 * 60 * 60 * 1000;

/** Aggregates of one window over probe rows `p` (already limited to the widest window). */
function windowColumns(asOf: Date): Prisma.Sql {
  return Prisma.join(
    WINDOWS.map(({ key, interval }) => {
      const inWindow = Prisma.sql`p.probed_at > ${asOf}::timestamptz - ${Prisma.raw(`interval '${interval}'`)}`;
      const answered = Prisma.sql`${inWindow} AND p.status_code IS NOT NULL AND p.latency_ms IS NOT NULL`;
      return Prisma.sql`
        count(*) FILTER (WHERE ${inWindow})::int AS ${Prisma.raw(`"probes_${key}"`)},
        count(*) FILTER (WHERE ${inWindow} AND NOT (p.outcome = 'refused' AND p.status_code IS NULL))::int
          AS ${Prisma.raw(`"attempted_${key}"`)},
        count(*) FILTER (WHERE ${inWindow} AND p.status_code < 500)::int AS ${Prisma.raw(`"up_${key}"`)},
        percentile_cont(0.5) WITHIN GROUP (ORDER BY p.latency_ms) FILTER (WHERE ${answered})
          AS ${Prisma.raw(`"p50_${key}"`)},
        percentile_cont(0.99) WITHIN GROUP (ORDER BY p.latency_ms) FILTER (WHERE ${answered})
          AS ${Prisma.raw(`"p99_${key}"`)}`;
    }),
    ",",
  );
}

/** Probes of the widest window up to `asOf`, via the (endpoint_id, probed_at) index. */
function probeRange(asOf: Date): Prisma.Sql {
  return Prisma.sql`p.probed_at > ${asOf}::timestamptz - interval '30 days' AND p.probed_at <= ${asOf}::timestamptz`;
}

type Row = Record<string, unknown> & {
  id: string;
  last_at: Date | null;
  last_status: number | null;
  last_outcome: string | null;
  last_valid: boolean | null;
  last_verified_at: Date | null;
};

const numberOrNull = (value: unknown): number | null => (typeof value === "number" ? value : null);

function summaryOf(row: Row, asOf: Date): ProbeSummary {
  const windows = {} as Record<WindowKey, ProbeWindowStats>;
  for (const { key } of WINDOWS) {
    const attempted = Number(row[`attempted_${key}`] ?? 0);
    windows[key] = {
      probes: Number(row[`probes_${key}`] ?? 0),
      uptimePct: attempted === 0 ? null : (100 * Number(row[`up_${key}`] ?? 0)) / attempted,
      p50Ms: numberOrNull(row[`p50_${key}`]),
      p99Ms: numberOrNull(row[`p99_${key}`]),
    };
  }
  const lastProbe =
    row.last_at === null
      ? null
      : {
          at: row.last_at,
          statusCode: row.last_status,
          outcome: row.last_outcome ?? "",
          challengeValid: row.last_valid === true,
        };
  const verified =
    row.last_verified_at !== null && row.last_verified_at.getTime() > asOf.getTime() - VERIFIED_WITHIN_MS;
  return { windows, lastProbe, lastVerifiedAt: row.last_verified_at, verified };
}

/** Probe statistics of these endpoints (a page of API results); unknown ids are left out. */
export async function endpointProbeStats(
  pool: ReadPool,
  endpointIds: string[],
  asOf: Date = new Date(),
): Promise<Map<string, ProbeSummary>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await queryRows<Row>(
    pool,
    Prisma.sql`
      SELECT e.id, e.last_verified_at, lp.probed_at AS last_at, lp.status_code AS last_status,
        lp.outcome AS last_outcome, lp.challenge_valid AS last_valid, w.*
      FROM endpoints e
      LEFT JOIN LATERAL (
        SELECT p.probed_at, p.status_code, p.outcome, p.challenge_valid FROM endpoint_probes p
        WHERE p.endpoint_id = e.id AND p.probed_at <= ${asOf}::timestamptz
        ORDER BY p.probed_at DESC LIMIT 1
      ) lp ON TRUE
      CROSS JOIN LATERAL (
        SELECT ${windowColumns(asOf)} FROM endpoint_probes p WHERE p.endpoint_id = e.id AND ${probeRange(asOf)}
      ) w
      WHERE e.id = ANY(${endpointIds}::uuid[])`,
    { prepared: true },
  );
  return new Map(rows.map((row) => [row.id, summaryOf(row, asOf)]));
}

/**
 * Probe statistics of these services over all their endpoints; unknown ids are left out. For the
 * primary row of a catalogue entry that means every endpoint of every row of the entry (a row that
 * is not a primary has no members, so it gets its own endpoints).
 */
export async function serviceProbeStats(
  pool: ReadPool,
  serviceIds: string[],
  asOf: Date = new Date(),
): Promise<Map<string, ProbeSummary>> {
  if (serviceIds.length === 0) return new Map();
  const rows = await queryRows<Row>(
    pool,
    Prisma.sql`
      SELECT s.id, v.last_verified_at, lp.probed_at AS last_at, lp.status_code AS last_status,
        lp.outcome AS last_outcome, lp.challenge_valid AS last_valid, w.*
      FROM services s
      CROSS JOIN LATERAL (
        SELECT max(e.last_verified_at) AS last_verified_at FROM endpoints e WHERE e.service_id IN (SELECT m.id FROM services m WHERE ${isEntryMember("m", "s")})
      ) v
      LEFT JOIN LATERAL (
        SELECT p.probed_at, p.status_code, p.outcome, p.challenge_valid
        FROM endpoints e
        CROSS JOIN LATERAL (
          SELECT * FROM endpoint_probes p WHERE p.endpoint_id = e.id AND p.probed_at <= ${asOf}::timestamptz
          ORDER BY p.probed_at DESC LIMIT 1
        ) p
        WHERE e.service_id IN (SELECT m.id FROM services m WHERE ${isEntryMember("m", "s")})
        ORDER BY p.probed_at DESC LIMIT 1
      ) lp ON TRUE
      CROSS JOIN LATERAL (
        SELECT ${windowColumns(asOf)}
        FROM endpoints e JOIN endpoint_probes p ON p.endpoint_id = e.id
        WHERE e.service_id IN (SELECT m.id FROM services m WHERE ${isEntryMember("m", "s")}) AND ${probeRange(asOf)}
      ) w
      WHERE s.id = ANY(${serviceIds}::uuid[])`,
    { prepared: true },
  );
  return new Map(rows.map((row) => [row.id, summaryOf(row, asOf)]));
}
