import type { ObservedTransfer } from "../../src/activity/wash-rules";

/**
 * Transfers for the pure rules and figures: each in a block of its own, in the order made, dated
 * `hoursBeforeAsOf` before `asOf`.
 */
export function transferMaker(asOf: Date) {
  let block = 0n;
  return (from: string, to: string, value: bigint, hoursBeforeAsOf: number): ObservedTransfer => {
    block += 1n;
    return {
      chain: "eip155:8453",
      txHash: `0x${block.toString(16).padStart(64, "0")}`,
      logIndex: 0,
      blockNumber: block,
      blockTime: new Date(asOf.getTime() - hoursBeforeAsOf * 3_600_000),
      from,
      to,
      value,
    };
  };
}
