import type { z } from "zod";
import type { unappliedTransfer } from "../events/payloads";
import { formatUsdcUnits } from "./usdc-amount";

/** What settlement knows of a recorded transfer. */
export interface RecordedTransfer {
  chain: string;
  txHash: string;
  logIndex: number;
  from: string;
  value: bigint;
  blockTime: Date;
}

export type UnappliedTransferJson = z.input<typeof unappliedTransfer>;

/**
 * A transfer recorded against an order but not credited (chain_transfers.applied = false), as
 * the order's `unapplied_transfers` and the `payment_order.unapplied_transfer` event show it.
 */
export function unappliedTransferJson(transfer: RecordedTransfer): UnappliedTransferJson {
  return {
    chain: transfer.chain,
    transaction: transfer.txHash,
    log_index: transfer.logIndex,
    from: transfer.from,
    amount: formatUsdcUnits(transfer.value),
    time: transfer.blockTime.toISOString(),
  };
}
