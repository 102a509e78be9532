import { createPublicClient, getAddress, http, parseAbiItem, webSocket } from "viem";

/** The one event settlement reads: the standard ERC-20 Transfer, as USDC emits it. */
export const TRANSFER_EVENT = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);

export interface UsdcTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  from: string;
  /** Checksummed where settlement reads it (as deposit addresses are stored); lower-case for chain activity. */
  to: string;
  value: bigint;
}

/** A transfer with its chain and its block's time: what settlement records and chain activity counts. */
export interface ConfirmedTransfer extends UsdcTransfer {
  chain: string;
  blockTime: Date;
}

/** Earlier block first, then earlier log: the order transfers happened in. */
export function byChainOrder(
  a: { blockNumber: bigint; logIndex: number },
  b: { blockNumber: bigint; logIndex: number },
): number {
  return a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1;
}

/** How many addresses one getLogs call filters on (RPC providers bound a request's topics). */
const ADDRESSES_PER_CALL = 200;

/**
 * The seam in front of a chain: all settlement needs from an RPC endpoint (the head, USDC
 * transfers to given addresses in a block range, a block's time). Tests and production differ
 * only in the URL.
 */
export class UsdcChainReader {
  private readonly client;
  private readonly blockTimes = new Map<bigint, Date>();

  constructor(
    rpcUrl: string,
    private readonly usdcContract: `0x${string}`,
  ) {
    const transport = /^wss?:/.test(rpcUrl) ? webSocket(rpcUrl) : http(rpcUrl, { retryCount: 2 });
    this.client = createPublicClient({ transport });
  }

  headBlock(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  async transfersTo(
    addresses: readonly string[],
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<UsdcTransfer[]> {
    const transfers: UsdcTransfer[] = [];
    for (let start = 0; start < addresses.length; start += ADDRESSES_PER_CALL) {
      const to = addresses.slice(start, start + ADDRESSES_PER_CALL) as `0x${string}`[];
      const logs = await this.client.getLogs({
        address: this.usdcContract,
        event: TRANSFER_EVENT,
        args: { to },
        fromBlock,
        toBlock,
        strict: true,
      });
      for (const log of logs) {
        if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue;
        transfers.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          from: getAddress(log.args.from),
          to: getAddress(log.args.to),
          value: log.args.value,
        });
      }
    }
    return transfers.sort(byChainOrder);
  }

  async blockTime(blockNumber: bigint): Promise<Date> {
    const known = this.blockTimes.get(blockNumber);
    if (known) return known;
    const block = await this.client.getBlock({ blockNumber });
    const time = new Date(Number(block.timestamp) * 1000);
    if (this.blockTimes.size > 1000) this.blockTimes.clear();
    this.blockTimes.set(blockNumber, time);
    return time;
  }
}
