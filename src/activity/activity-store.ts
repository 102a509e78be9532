import type { ChainBlock, TransferRange } from "../chain/transfer-logs";
import type { Database } from "../db/prisma-client";
import { queryRows, type SqlRunner } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import type { ObservedTransfer } from "./wash-rules";

/** Data access of the chain reader: watched pay_tos, transfers, per-address cursors, block hashes. */

export interface WatchedPayTo {
  /** Lower-case. */
  address: string;
  /** The catalogue entry (its primary row) that publishes it. */
  serviceId: string;
  endpointId: string;
}

/** The EVM pay_tos of listed services' payment options on `chain`, once per endpoint. */
export async function watchedPayTos(db: SqlRunner, chain: string): Promise<WatchedPayTo[]> {
  return queryRows<WatchedPayTo>(
    db,
    Prisma.sql`
      SELECT DISTINCT lower(po.pay_to) AS address, coalesce(s.canonical_id, s.id)::text AS "serviceId",
        e.id::text AS "endpointId"
      FROM payment_options po
      JOIN endpoints e ON e.id = po.endpoint_id
      JOIN services s ON s.id = e.service_id
      WHERE po.network = ${chain} AND po.pay_to ~* '^0x[0-9a-f]{40}$' AND s.status = 'listed'
      ORDER BY 1, 2, 3`,
  );
}

/** The last block read for each address of `chain` that has been read at all. */
export async function addressCursors(db: SqlRunner, chain: string): Promise<Map<string, bigint>> {
  const rows = await queryRows<{ address: string; last_block: string }>(
    db,
    Prisma.sql`SELECT address, last_block::text FROM activity_cursors WHERE chain = ${chain}`,
  );
  return new Map(rows.map((row) => [row.address, BigInt(row.last_block)]));
}

/**
 * One range read for one topic list of addresses: its transfers (a transfer already stored is kept as it is), the
 * addresses' cursors moved to its end, and the end block's hash. Called in one transaction, so a
 * restart resumes exactly after the last stored range.
 */
export async function storeRange(
  tx: Transaction,
  chain: string,
  range: TransferRange,
  blockTimes: ReadonlyMap<bigint, Date>,
  end: ChainBlock,
): Promise<number> {
  const { transfers, addresses } = range;
  let inserted = 0;
  if (transfers.length > 0) {
    inserted = await tx.$executeRaw(Prisma.sql`
      INSERT INTO activity_transfers
        (chain, tx_hash, log_index, block_number, block_time, from_address, to_address, value_units)
      SELECT ${chain}, t.tx_hash, t.log_index, t.block_number, t.block_time, t.from_address, t.to_address, t.value_units
      FROM unnest(${transfers.map((t) => t.txHash)}::text[], ${transfers.map((t) => t.logIndex)}::int[],
        ${transfers.map((t) => t.blockNumber.toString())}::bigint[],
        ${transfers.map((t) => blockTimes.get(t.blockNumber) ?? end.time)}::timestamptz[],
        ${transfers.map((t) => t.from)}::text[], ${transfers.map((t) => t.to)}::text[],
        ${transfers.map((t) => t.value.toString())}::numeric[])
        AS t(tx_hash, log_index, block_number, block_time, from_address, to_address, value_units)
      ON CONFLICT (chain, tx_hash, log_index) DO NOTHING`);
  }
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO activity_cursors (chain, address, last_block, updated_at)
    SELECT ${chain}, address, ${range.toBlock.toString()}::bigint, now() FROM unnest(${addresses}::text[]) AS address
    ON CONFLICT (chain, address) DO UPDATE
      SET last_block = GREATEST(activity_cursors.last_block, EXCLUDED.last_block), updated_at = now()`);
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO activity_blocks (chain, block_number, block_hash)
    VALUES (${chain}, ${end.number.toString()}::bigint, ${end.hash})
    ON CONFLICT (chain, block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash`);
  return inserted;
}

/** Recorded range ends of `chain`, newest first: the places a reorganisation is looked for. */
export async function recordedBlocks(db: SqlRunner, chain: string, limit: number): Promise<ChainBlock[]> {
  // Ordered by the column, not by its text (which would put 7 after 35).
  const rows = await queryRows<{ number: string; block_hash: string }>(
    db,
    Prisma.sql`SELECT b.block_number::text AS number, b.block_hash FROM activity_blocks b WHERE b.chain = ${chain}
               ORDER BY b.block_number DESC LIMIT ${limit}`,
  );
  return rows.map((row) => ({ number: BigInt(row.number), hash: row.block_hash, time: new Date(0) }));
}

/** Forgets everything of `chain` after block `keep`, so it is read again. */
export async function rewindChain(db: Database, chain: string, keep: bigint): Promise<void> {
  const after = keep.toString();
  await db.$transaction([
    db.$executeRaw`DELETE FROM activity_transfers WHERE chain = ${chain} AND block_number > ${after}::bigint`,
    db.$executeRaw`UPDATE activity_cursors SET last_block = ${after}::bigint, updated_at = now()
                   WHERE chain = ${chain} AND last_block > ${after}::bigint`,
    db.$executeRaw`DELETE FROM activity_blocks WHERE chain = ${chain} AND block_number > ${after}::bigint`,
    db.$executeRaw`DELETE FROM activity_flags f WHERE f.chain = ${chain} AND NOT EXISTS (SELECT 1 FROM
                   activity_transfers t WHERE t.chain = f.chain AND t.tx_hash = f.tx_hash AND t.log_index = f.log_index)`,
  ]);
}

/** Keeps the newest `keep` block hashes of `chain`: enough to find any reorganisation a chain makes. */
export async function pruneBlocks(db: Database, chain: string, keep: number): Promise<void> {
  await db.$executeRaw`
    DELETE FROM activity_blocks WHERE chain = ${chain} AND block_number <
      (SELECT min(block_number) FROM (SELECT block_number FROM activity_blocks WHERE chain = ${chain}
       ORDER BY block_number DESC LIMIT ${keep}) newest)`;
}

/** Every stored transfer of `chain` to or from `addresses` since `since`, in chain order. */
export async function transfersOfPayTos(
  db: SqlRunner,
  chain: string,
  addresses: readonly string[],
  since: Date,
): Promise<ObservedTransfer[]> {
  const rows = await queryRows<{
    chain: string;
    tx_hash: string;
    log_index: number;
    block_number: string;
    block_time: Date;
    from_address: string;
    to_address: string;
    value_units: string;
  }>(
    db,
    Prisma.sql`SELECT t.chain, t.tx_hash, t.log_index, t.block_number::text, t.block_time, t.from_address,
                 t.to_address, t.value_units::text
               FROM activity_transfers t
               WHERE t.chain = ${chain} AND t.block_time > ${since}
                 AND (t.to_address = ANY(${addresses}::text[]) OR t.from_address = ANY(${addresses}::text[]))
               ORDER BY t.block_number, t.log_index`,
  );
  return rows.map((row) => ({
    chain: row.chain,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    blockNumber: BigInt(row.block_number),
    blockTime: new Date(row.block_time),
    from: row.from_address,
    to: row.to_address,
    value: BigInt(row.value_units),
  }));
}
