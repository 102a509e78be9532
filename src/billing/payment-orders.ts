import type { KeyOwner } from "../accounts/api-keys";
import { EvmAddressDeriver } from "../chain/deposit-address";
import { queryRows, type SqlRunner } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import { announceOrders } from "./billing-events";
import type { SettlementChain } from "./settlement-chains";
import { unappliedTransferJson } from "./unapplied-transfers";
import { formatUsdcUnits } from "./usdc-amount";

/** Orders settle in USDC; accepted assets name USDC on a configured chain. */
export const SETTLEMENT_ASSET = "USDC";

export interface AcceptedAsset {
  chain: string;
  asset: string;
}

export interface NewPaymentOrder {
  merchantOrderId: string;
  requestedAmount: string;
  amountUnits: bigint;
  acceptedAssets: AcceptedAsset[];
  metadata: string | null;
  expiresAt: Date;
}

interface OrderRow {
  id: string;
  merchant_order_id: string;
  requested_amount: string;
  amount_units: string;
  received_units: string;
  status: string;
  metadata: string | null;
  expires_at: Date;
  paid_at: Date | null;
  canceled_at: Date | null;
  expired_at: Date | null;
  created_at: Date;
  updated_at: Date;
  instructions: { chain: string; asset: string; address: string }[];
  unapplied: {
    chain: string;
    tx_hash: string;
    log_index: number;
    from_address: string;
    value_units: string;
    block_time: string;
  }[];
}

/**
 * The merchant API's PaymentOrder (its fields exactly), plus what settlement recorded: the
 * amount credited, and the transfers recorded against the order but not credited (to refund).
 */
export function paymentOrderJson(row: OrderRow) {
  const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());
  return {
    id: row.id,
    merchant_order_id: row.merchant_order_id,
    amount: formatUsdcUnits(BigInt(row.amount_units)),
    requested_amount: row.requested_amount,
    chain_amount: row.amount_units,
    settlement_asset: SETTLEMENT_ASSET,
    status: row.status,
    expires_at: iso(row.expires_at),
    metadata: row.metadata,
    created_at: iso(row.created_at),
    accepted_assets: row.instructions.map(({ chain, asset }) => ({ chain, asset })),
    payment_instructions: row.instructions,
    received_amount: formatUsdcUnits(BigInt(row.received_units)),
    paid_at: iso(row.paid_at),
    canceled_at: iso(row.canceled_at),
    expired_at: iso(row.expired_at),
    updated_at: iso(row.updated_at),
    unapplied_transfers: row.unapplied.map((transfer) =>
      unappliedTransferJson({
        chain: transfer.chain,
        txHash: transfer.tx_hash,
        logIndex: transfer.log_index,
        from: transfer.from_address,
        value: BigInt(transfer.value_units),
        blockTime: new Date(transfer.block_time),
      }),
    ),
  };
}

export type PaymentOrderJson = ReturnType<typeof paymentOrderJson>;

const SELECT_ORDER = Prisma.sql`
  SELECT o.id, o.merchant_order_id, o.requested_amount, o.amount_units, o.received_units, o.status::text,
         o.metadata, o.expires_at, o.paid_at, o.canceled_at, o.expired_at, o.created_at, o.updated_at,
         (SELECT coalesce(json_agg(json_build_object('chain', i.chain, 'asset', i.asset, 'address', i.address)
                                   ORDER BY i.chain, i.asset), '[]')
            FROM payment_instructions i WHERE i.order_id = o.id) AS instructions,
         (SELECT coalesce(json_agg(json_build_object('chain', t.chain, 'tx_hash', t.tx_hash, 'log_index', t.log_index,
                                     'from_address', t.from_address, 'value_units', t.value_units::text,
                                     'block_time', t.block_time)
                                   ORDER BY t.block_time, t.chain, t.block_number, t.log_index), '[]')
            FROM chain_transfers t WHERE t.order_id = o.id AND NOT t.applied) AS unapplied
  FROM payment_orders o`;

function ownedBy(owner: KeyOwner): Prisma.Sql {
  return Prisma.sql`o.organisation_id = ${owner.organisationId}::uuid AND o.environment = ${owner.environment}::environment`;
}

export async function getPaymentOrder(
  pool: SqlRunner,
  owner: KeyOwner,
  id: string,
): Promise<PaymentOrderJson | null> {
  const [row] = await queryRows<OrderRow>(
    pool,
    Prisma.sql`${SELECT_ORDER} WHERE o.id = ${id}::uuid AND ${ownedBy(owner)}`,
  );
  return row ? paymentOrderJson(row) : null;
}

export interface PaymentOrderPage {
  items: PaymentOrderJson[];
  has_more: boolean;
}

/** Most recent first; one row beyond the page tells whether there are more. */
export async function listPaymentOrders(
  pool: SqlRunner,
  owner: KeyOwner,
  page: { offset: number; limit: number; status?: string },
): Promise<PaymentOrderPage> {
  const status = page.status ? Prisma.sql`AND o.status = ${page.status}::payment_order_status` : Prisma.empty;
  const rows = await queryRows<OrderRow>(
    pool,
    Prisma.sql`${SELECT_ORDER} WHERE ${ownedBy(owner)} ${status}
               ORDER BY o.created_at DESC, o.id DESC LIMIT ${page.limit + 1} OFFSET ${page.offset}`,
  );
  return { items: rows.slice(0, page.limit).map(paymentOrderJson), has_more: rows.length > page.limit };
}

/**
 * Hands the order a deposit address on `chain` that no open order holds: the one released
 * longest ago (and at least the chain's address rest ago), else the next derived child of the
 * chain's xpub. The rest means a payer who pays a canceled or expired order late most likely
 * pays an address no other order holds yet. A per-chain transaction lock makes concurrent
 * creations take turns, so two open orders never share an address.
 */
async function allocateAddress(tx: Transaction, chain: SettlementChain, orderId: string): Promise<string> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`deposit-addresses:${chain.chain}`}))`;
  const [reused] = await queryRows<{ address: string }>(
    tx,
    Prisma.sql`UPDATE deposit_addresses SET order_id = ${orderId}::uuid, released_at = NULL
               WHERE (chain, derivation_index) = (
                 SELECT chain, derivation_index FROM deposit_addresses
                 WHERE chain = ${chain.chain} AND order_id IS NULL
                   AND released_at < now() - ${chain.addressRestSeconds}::int * interval '1 second'
                 ORDER BY released_at, derivation_index LIMIT 1)
               RETURNING address`,
  );
  if (reused) return reused.address;
  const [{ next = 0 } = {}] = await queryRows<{ next: number }>(
    tx,
    Prisma.sql`SELECT coalesce(max(derivation_index) + 1, 0)::int AS next FROM deposit_addresses WHERE chain = ${chain.chain}`,
  );
  const address = new EvmAddressDeriver(chain.xpub).address(next);
  await queryRows(
    tx,
    Prisma.sql`INSERT INTO deposit_addresses (chain, derivation_index, address, order_id)
               VALUES (${chain.chain}, ${next}, ${address}, ${orderId}::uuid)`,
  );
  return address;
}

/** Creates the order and its payment instructions (one address per accepted asset) in `tx`. */
export async function createPaymentOrder(
  tx: Transaction,
  owner: KeyOwner,
  chains: ReadonlyMap<string, SettlementChain>,
  order: NewPaymentOrder,
): Promise<PaymentOrderJson> {
  const [{ id } = { id: "" }] = await queryRows<{ id: string }>(
    tx,
    Prisma.sql`INSERT INTO payment_orders (id, organisation_id, environment, merchant_order_id, requested_amount,
                 amount_units, metadata, expires_at, updated_at)
               VALUES (gen_random_uuid(), ${owner.organisationId}::uuid, ${owner.environment}::environment,
                 ${order.merchantOrderId}, ${order.requestedAmount}, ${order.amountUnits.toString()}::bigint,
                 ${order.metadata}, ${order.expiresAt}, now())
               RETURNING id`,
  );
  // Chains in name order, so two creations lock the same chains in the same order (no deadlock).
  const sorted = [...order.acceptedAssets].sort((a, b) => a.chain.localeCompare(b.chain));
  for (const accepted of sorted) {
    const chain = chains.get(accepted.chain);
    if (!chain) throw new Error(`chain ${accepted.chain} is not configured`);
    const address = await allocateAddress(tx, chain, id);
    await queryRows(
      tx,
      Prisma.sql`INSERT INTO payment_instructions (order_id, chain, asset, address)
                 VALUES (${id}::uuid, ${accepted.chain}, ${accepted.asset}, ${address})`,
    );
  }
  await announceOrders(tx, "payment_order.created", [id]);
  const created = await getPaymentOrder(tx, owner, id);
  if (!created) throw new Error(`payment order ${id} vanished inside its own transaction`);
  return created;
}
