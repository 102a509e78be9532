/** One order's hold on a deposit address: from when it took it until it gave it up (null: holds it). */
export interface AddressHold {
  orderId: string;
  assignedAt: Date;
  releasedAt: Date | null;
}

/**
 * How far a block's time may precede the moment its payer could know the address: block
 * timestamps are whole seconds, a slot's block can carry transactions sent after the slot began,
 * and the chain's clock is not the database's. Far shorter than an address's rest between orders.
 */
export const BLOCK_TIME_TOLERANCE_MS = 60_000;

/**
 * The order a transfer to an address belongs to, given every hold of that address and the
 * transfer's block time:
 *   1. the order that held the address at that time;
 *   2. else the order that took it soonest after that time, within the tolerance (the payer of a
 *      brand-new order whose block's timestamp is a little early);
 *   3. else the last order that held it before that time (a late payment to a released address).
 * Never an order that took the address later than the tolerance after the block: a transfer read
 * late, after its address passed to another order, stays with the order it paid. null: the
 * address had no order by then.
 */
export function orderHoldingAddressAt(holds: readonly AddressHold[], blockTime: Date): string | null {
  const time = blockTime.getTime();
  let best: { rank: number; distance: number; orderId: string } | null = null;
  for (const hold of holds) {
    const assigned = hold.assignedAt.getTime();
    if (assigned > time + BLOCK_TIME_TOLERANCE_MS) continue;
    const heldAfter = hold.releasedAt === null || time < hold.releasedAt.getTime();
    const rank = heldAfter ? (assigned <= time ? 1 : 2) : 3;
    const distance = Math.abs(assigned - time);
    if (!best || rank < best.rank || (rank === best.rank && distance < best.distance)) {
      best = { rank, distance, orderId: hold.orderId };
    }
  }
  return best?.orderId ?? null;
}
