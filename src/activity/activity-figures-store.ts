import { queryRows, type SqlRunner } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import type { DailyFigures, ObservedJson } from "./figures";
import type { TransferFlag } from "./wash-rules";

/** Data access of the figures: the claims they stand beside, and where they are written. */

export interface ServiceClaims {
  /** The entry's primary row. */
  serviceId: string;
  /** The id the API shows for the entry. */
  shownId: string;
  name: string;
  source: string;
  detailUrl: string;
  volumeUsdc30d: string | null;
  txCount30d: number | null;
  payerCount30d: number | null;
  /** What feeds say of the entry's endpoints: calls summed, payers the largest. */
  feedCalls30d: number | null;
  feedPayers30d: number | null;
}

const quality = (alias: string, field: string) =>
  Prisma.sql`(${Prisma.raw(alias)}.self_reported -> 'quality' ->> ${field})::bigint`;

export async function serviceClaims(db: SqlRunner, serviceIds: readonly string[]): Promise<ServiceClaims[]> {
  return queryRows<ServiceClaims>(
    db,
    Prisma.sql`
      SELECT s.id::text AS "serviceId", coalesce(s.entry_id, s.canonical_id, s.id)::text AS "shownId", s.name,
        src.kind::text AS source, s.detail_url AS "detailUrl", s.volume_usdc_30d::text AS "volumeUsdc30d",
        s.tx_count_30d AS "txCount30d", s.payer_count_30d AS "payerCount30d",
        (SELECT sum(${quality("e", "total_calls_30d")})::int FROM services m JOIN endpoints e ON e.service_id = m.id
          WHERE coalesce(m.canonical_id, m.id) = s.id) AS "feedCalls30d",
        (SELECT max(${quality("e", "unique_payers_30d")})::int FROM services m JOIN endpoints e ON e.service_id = m.id
          WHERE coalesce(m.canonical_id, m.id) = s.id) AS "feedPayers30d"
      FROM services s JOIN sources src ON src.id = s.source_id
      WHERE s.id = ANY(${serviceIds}::uuid[])`,
  );
}

export async function endpointFeedClaims(
  db: SqlRunner,
  endpointIds: readonly string[],
): Promise<Map<string, { calls: number | null; payers: number | null }>> {
  const rows = await queryRows<{ id: string; calls: number | null; payers: number | null }>(
    db,
    Prisma.sql`SELECT e.id::text, ${quality("e", "total_calls_30d")}::int AS calls,
                 ${quality("e", "unique_payers_30d")}::int AS payers
               FROM endpoints e WHERE e.id = ANY(${endpointIds}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.id, { calls: row.calls, payers: row.payers }]));
}

export interface ServiceFigures {
  serviceId: string;
  observed: ObservedJson;
  daily: DailyFigures[];
}

/** The id the API shows for each of these primary rows. */
export async function shownIds(
  db: SqlRunner,
  serviceIds: readonly string[],
): Promise<Array<{ serviceId: string; shownId: string }>> {
  return queryRows(
    db,
    Prisma.sql`SELECT s.id::text AS "serviceId", coalesce(s.entry_id, s.canonical_id, s.id)::text AS "shownId"
               FROM services s WHERE s.id = ANY(${serviceIds}::uuid[])`,
  );
}

/**
 * Before a refresh writes its batches: the figures of entries and endpoints no longer watched
 * go, and so do the daily rows from `sinceDay` on (every batch writes its own again).
 */
export async function clearFigures(
  tx: Transaction,
  serviceIds: readonly string[],
  endpointIds: readonly string[],
  sinceDay: string,
): Promise<void> {
  await tx.$executeRaw`DELETE FROM service_activity WHERE NOT (service_id = ANY(${serviceIds}::uuid[]))`;
  await tx.$executeRaw`DELETE FROM endpoint_activity WHERE NOT (endpoint_id = ANY(${endpointIds}::uuid[]))`;
  await tx.$executeRaw`DELETE FROM service_activity_days WHERE day >= ${sinceDay}::date`;
}

/** Writes the figures of some entries and endpoints, and the entries' daily rows. */
export async function writeFigures(
  tx: Transaction,
  services: readonly ServiceFigures[],
  endpoints: ReadonlyMap<string, ObservedJson>,
  asOf: Date,
): Promise<void> {
  const ids = services.map((service) => service.serviceId);
  if (services.length > 0) {
    const column = <T>(pick: (service: ServiceFigures) => T) => services.map(pick);
    await tx.$executeRaw`
      INSERT INTO service_activity (service_id, observed_volume_usdc_30d, adjusted_volume_usdc_30d,
        observed_tx_count_30d, unique_payers_30d, adjusted_unique_payers_30d, flagged_transfers_30d, claim_ratio,
        observed, computed_at)
      SELECT *, ${asOf}::timestamptz FROM unnest(${ids}::uuid[],
        ${column((s) => s.observed.raw["30d"].volume_usdc)}::numeric[],
        ${column((s) => s.observed.adjusted["30d"].volume_usdc)}::numeric[],
        ${column((s) => s.observed.raw["30d"].tx_count)}::int[],
        ${column((s) => s.observed.raw["30d"].unique_payers)}::int[],
        ${column((s) => s.observed.adjusted["30d"].unique_payers)}::int[],
        ${column((s) => s.observed.raw["30d"].tx_count - s.observed.adjusted["30d"].tx_count)}::int[],
        ${column((s) => s.observed.claim_ratio)}::float8[],
        ${column((s) => JSON.stringify(s.observed))}::jsonb[])
      ON CONFLICT (service_id) DO UPDATE SET
        observed_volume_usdc_30d = EXCLUDED.observed_volume_usdc_30d,
        adjusted_volume_usdc_30d = EXCLUDED.adjusted_volume_usdc_30d,
        observed_tx_count_30d = EXCLUDED.observed_tx_count_30d, unique_payers_30d = EXCLUDED.unique_payers_30d,
        adjusted_unique_payers_30d = EXCLUDED.adjusted_unique_payers_30d,
        flagged_transfers_30d = EXCLUDED.flagged_transfers_30d, claim_ratio = EXCLUDED.claim_ratio,
        observed = EXCLUDED.observed, computed_at = EXCLUDED.computed_at`;
  }
  if (endpoints.size > 0) {
    await tx.$executeRaw`
      INSERT INTO endpoint_activity (endpoint_id, observed, computed_at)
      SELECT *, ${asOf}::timestamptz FROM unnest(${[...endpoints.keys()]}::uuid[],
        ${[...endpoints.values()].map((observed) => JSON.stringify(observed))}::jsonb[])
      ON CONFLICT (endpoint_id) DO UPDATE SET observed = EXCLUDED.observed, computed_at = EXCLUDED.computed_at`;
  }
  const days = services.flatMap((service) => service.daily.map((day) => ({ id: service.serviceId, ...day })));
  if (days.length > 0) {
    await tx.$executeRaw`
      INSERT INTO service_activity_days (service_id, day, volume_usdc, tx_count, unique_payers,
        adjusted_volume_usdc, adjusted_tx_count, adjusted_unique_payers)
      SELECT * FROM unnest(${days.map((d) => d.id)}::uuid[], ${days.map((d) => d.day)}::date[],
        ${days.map((d) => d.raw.volume_usdc)}::numeric[], ${days.map((d) => d.raw.tx_count)}::int[],
        ${days.map((d) => d.raw.unique_payers)}::int[], ${days.map((d) => d.adjusted.volume_usdc)}::numeric[],
        ${days.map((d) => d.adjusted.tx_count)}::int[], ${days.map((d) => d.adjusted.unique_payers)}::int[])
      ON CONFLICT (service_id, day) DO NOTHING`;
  }
}

/** Stores the flags; returns those stored for the first time, by "chain:tx:log" key. */
export async function recordFlags(
  tx: Transaction,
  flags: ReadonlyArray<{ chain: string; txHash: string; logIndex: number; flag: TransferFlag }>,
): Promise<Set<string>> {
  if (flags.length === 0) return new Set();
  const rows = await queryRows<{ key: string; rule: string; inserted: boolean }>(
    tx,
    Prisma.sql`
      INSERT INTO activity_flags (chain, tx_hash, log_index, rule, transactions, transaction_count)
      SELECT f.chain, f.tx_hash, f.log_index, f.rule, ARRAY(SELECT jsonb_array_elements_text(f.transactions)),
        f.transaction_count
      FROM unnest(${flags.map((f) => f.chain)}::text[], ${flags.map((f) => f.txHash)}::text[],
        ${flags.map((f) => f.logIndex)}::int[], ${flags.map((f) => f.flag.rule)}::text[],
        ${flags.map((f) => JSON.stringify(f.flag.transactions))}::jsonb[],
        ${flags.map((f) => f.flag.transactionCount)}::int[])
        AS f(chain, tx_hash, log_index, rule, transactions, transaction_count)
      ON CONFLICT (chain, tx_hash, log_index, rule) DO UPDATE
        SET transactions = EXCLUDED.transactions, transaction_count = EXCLUDED.transaction_count
      RETURNING chain || ':' || tx_hash || ':' || log_index AS key, rule, (xmax = 0) AS inserted`,
  );
  return new Set(rows.filter((row) => row.inserted).map((row) => `${row.key}|${row.rule}`));
}
