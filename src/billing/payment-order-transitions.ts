import type { KeyOwner } from "../accounts/api-keys";
import type { ConfirmedTransfer } from "../chain/usdc-transfers";
import { queryRows } from "../db/read-pool";
import type { Transaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import { orderHoldingAddressAt } from "./address-holder";
import { announceOrders, announceUnappliedTransfer } from "./billing-events";
import { settleInvoiceOfOrder, voidInvoicesOfOrders } from "./subscription-transitions";
import { unappliedTransferJson } from "./unapplied-transfers";

/**
 * Every move of a payment order's status, in one place: created → paid | expired | canceled.
 * Each move is one conditional UPDATE (`WHERE status = 'created'`) in the caller's transaction,
 * together with releasing the order's deposit addresses. Postgres re-checks the condition on the
 * row after a concurrent change commits, so of a cancel and a settling payment racing on one
 * order exactly one wins; the other changes nothing. The invoice an order pays (if any) moves in
 * the same transaction (subscription-transitions.ts), and so do the events.
 */

interface MovedOrder {
  id: string;
}

/** The orders give up their addresses: free for another order once rested, and the hold ends now. */
async function releaseAddresses(tx: Transaction, orderIds: string[]): Promise<void> {
  await queryRows(
    tx,
    Prisma.sql`UPDATE deposit_addresses SET order_id = NULL, released_at = now()
               WHERE order_id = ANY(${orderIds}::uuid[])`,
  );
  await queryRows(
    tx,
    Prisma.sql`UPDATE payment_instructions SET released_at = now()
               WHERE order_id = ANY(${orderIds}::uuid[]) AND released_at IS NULL`,
  );
}

export type CancelOutcome =
  | { kind: "canceled" }
  | { kind: "not_found" }
  | { kind: "conflict"; status: string };

/** created → canceled, for the owner's order only. */
export async function cancelOrder(tx: Transaction, owner: KeyOwner, id: string): Promise<CancelOutcome> {
  const moved = await queryRows<MovedOrder>(
    tx,
    Prisma.sql`UPDATE payment_orders SET status = 'canceled', canceled_at = now(), updated_at = now()
               WHERE id = ${id}::uuid AND organisation_id = ${owner.organisationId}::uuid
                 AND environment = ${owner.environment}::environment AND status = 'created'
               RETURNING id`,
  );
  if (moved.length === 0) {
    const [current] = await queryRows<{ status: string }>(
      tx,
      Prisma.sql`SELECT status::text FROM payment_orders WHERE id = ${id}::uuid
                   AND organisation_id = ${owner.organisationId}::uuid
                   AND environment = ${owner.environment}::environment`,
    );
    return current ? { kind: "conflict", status: current.status } : { kind: "not_found" };
  }
  await releaseAddresses(tx, [id]);
  await announceOrders(tx, "payment_order.canceled", [id]);
  await voidInvoicesOfOrders(tx, [id]);
  return { kind: "canceled" };
}

/**
 * created → expired for every order whose expiry has passed on the clock and on every chain it
 * accepts (each chain's watcher has recorded a block at or after `expires_at`), so a transfer
 * mined in time but still gathering confirmations is credited first. A chain nobody reads any
 * more holds its orders open for at most a day longer. Returns how many moved.
 */
export async function expireDueOrders(tx: Transaction): Promise<number> {
  const moved = await queryRows<MovedOrder>(
    tx,
    Prisma.sql`UPDATE payment_orders o SET status = 'expired', expired_at = now(), updated_at = now()
               WHERE o.status = 'created' AND o.expires_at <= now()
                 AND (o.expires_at <= now() - interval '1 day' OR NOT EXISTS (
                   SELECT 1 FROM payment_instructions i
                   LEFT JOIN settlement_cursors c ON c.chain = i.chain
                   WHERE i.order_id = o.id AND (c.last_block_time IS NULL OR c.last_block_time < o.expires_at)))
               RETURNING o.id`,
  );
  if (moved.length === 0) return 0;
  const ids = moved.map((order) => order.id);
  await releaseAddresses(tx, ids);
  await announceOrders(tx, "payment_order.expired", ids);
  await voidInvoicesOfOrders(tx, ids);
  return moved.length;
}

/**
 * Records a confirmed USDC transfer once (chain, tx hash, log index: a restart that reads the
 * same block again adds nothing) against the order that held its address at the transfer's block
 * time (address-holder.ts), however late it is read, and credits it if that order is still
 * `created` and its expiry is after the block. The order moves to `paid` when its received total
 * reaches its amount (more is recorded as overpayment). A transfer to an order that is no longer
 * open, or that came after its expiry, is recorded against it, not applied, and announced as
 * `payment_order.unapplied_transfer`.
 */
export async function recordTransfer(
  tx: Transaction,
  transfer: ConfirmedTransfer,
): Promise<"duplicate" | "applied" | "recorded"> {
  const holds = await queryRows<{ order_id: string; assigned_at: Date; released_at: Date | null }>(
    tx,
    Prisma.sql`SELECT order_id, assigned_at, released_at FROM payment_instructions
               WHERE chain = ${transfer.chain} AND address = ${transfer.to}`,
  );
  const orderId = orderHoldingAddressAt(
    holds.map((hold) => ({
      orderId: hold.order_id,
      assignedAt: new Date(hold.assigned_at),
      releasedAt: hold.released_at === null ? null : new Date(hold.released_at),
    })),
    transfer.blockTime,
  );
  const inserted = await queryRows(
    tx,
    Prisma.sql`INSERT INTO chain_transfers (chain, tx_hash, log_index, block_number, block_time,
                 from_address, to_address, value_units, order_id, applied)
               VALUES (${transfer.chain}, ${transfer.txHash}, ${transfer.logIndex}, ${transfer.blockNumber.toString()}::bigint,
                 ${transfer.blockTime}, ${transfer.from}, ${transfer.to}, ${transfer.value.toString()}::bigint, ${orderId}::uuid, false)
               ON CONFLICT DO NOTHING RETURNING 1`,
  );
  if (inserted.length === 0) return "duplicate";
  if (!orderId) return "recorded";
  const [credited] = await queryRows<{ received_units: string; amount_units: string }>(
    tx,
    Prisma.sql`UPDATE payment_orders SET received_units = received_units + ${transfer.value.toString()}::bigint, updated_at = now()
               WHERE id = ${orderId}::uuid AND status = 'created' AND expires_at > ${transfer.blockTime}
               RETURNING received_units, amount_units`,
  );
  if (!credited) {
    // Announced here, with the row that records it: once per transfer, however often it is read.
    await announceUnappliedTransfer(tx, orderId, unappliedTransferJson(transfer));
    return "recorded";
  }
  await queryRows(
    tx,
    Prisma.sql`UPDATE chain_transfers SET applied = true
               WHERE chain = ${transfer.chain} AND tx_hash = ${transfer.txHash} AND log_index = ${transfer.logIndex}`,
  );
  if (BigInt(credited.received_units) >= BigInt(credited.amount_units)) {
    const paid = await queryRows<MovedOrder>(
      tx,
      Prisma.sql`UPDATE payment_orders SET status = 'paid', paid_at = now(), updated_at = now()
                 WHERE id = ${orderId}::uuid AND status = 'created'
                 RETURNING id`,
    );
    if (paid.length > 0) {
      await releaseAddresses(tx, [orderId]);
      await announceOrders(tx, "payment_order.paid", [orderId]);
      await settleInvoiceOfOrder(tx, orderId);
    }
  }
  return "applied";
}
