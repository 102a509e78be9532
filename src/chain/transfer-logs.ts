import pThrottle from "p-throttle";
import { BaseError, createPublicClient, http, webSocket } from "viem";
import { byChainOrder, TRANSFER_EVENT, type UsdcTransfer } from "./usdc-transfers";

/** One USDC Transfer log, its addresses lower-case. */
export type TransferLog = UsdcTransfer;

/** What an RPC endpoint accepts; public endpoints refuse wide ranges and long topic lists. */
export interface RpcLimits {
  /** Widest block range one eth_getLogs asks for; a refused range halves, then grows back. */
  maxBlockRange: number;
  /** Addresses in one topic OR-list. */
  addressesPerRequest: number;
  /** Requests a second to the endpoint, all kinds together. */
  requestsPerSecond: number;
  /** Consecutive failures of a one-block request before the round gives up. */
  maxAttempts: number;
  /** First pause after a failure; it doubles with each further failure, up to 30 s. */
  backoffMs: number;
  /** One request's time limit. */
  timeoutMs: number;
}

export interface TransferRange {
  /** The addresses read (one topic list's worth). */
  addresses: readonly string[];
  fromBlock: bigint;
  toBlock: bigint;
  /** Transfers to or from the addresses in the range, each once, in chain order. */
  transfers: TransferLog[];
}

export interface ChainBlock {
  number: bigint;
  hash: string;
  time: Date;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * How RPC endpoints refuse a request that is too wide: too many results ("query returned more
 * than 10000 results", "log response size exceeded"), a block range or topic list over their
 * limit, or no answer in time. Such a request succeeds when narrower.
 */
const REFUSAL = /more than|too many|exceed|limit|range|too large|size|timed? ?out|timeout/i;

export function isRangeRefusal(error: unknown): boolean {
  // viem's full message quotes the URL and the request body: only what the endpoint said counts.
  if (error instanceof BaseError) return REFUSAL.test(`${error.shortMessage} ${error.details}`);
  return error instanceof Error && REFUSAL.test(error.message);
}

/**
 * Reads USDC Transfer logs to and from many addresses over a JSON-RPC endpoint, within its limits:
 * addresses go in topic OR-lists of `addressesPerRequest`, block ranges halve when the endpoint
 * refuses one (too many results, response too large, timeout) and double again after a success,
 * every request passes one rate limit, and other failures are retried with backoff.
 */
export class TransferLogReader {
  private readonly client;
  private readonly throttled: <T>(request: () => Promise<T>) => Promise<T>;
  private span: bigint;
  /** eth_getLogs and eth_getBlock* requests made, for logs and benchmarks. */
  requests = 0;

  constructor(
    rpcUrl: string,
    private readonly usdcContract: `0x${string}`,
    private readonly limits: RpcLimits,
  ) {
    // No transport retries: a refused range is answered by a narrower one, not by asking again.
    const transport = /^wss?:/.test(rpcUrl)
      ? webSocket(rpcUrl, { retryCount: 0, timeout: limits.timeoutMs })
      : http(rpcUrl, { retryCount: 0, timeout: limits.timeoutMs });
    this.client = createPublicClient({ transport });
    const throttle = pThrottle({ limit: limits.requestsPerSecond, interval: 1000 });
    this.throttled = throttle(<T>(request: () => Promise<T>) => {
      this.requests += 1;
      return request();
    }) as <T>(request: () => Promise<T>) => Promise<T>;
    this.span = BigInt(limits.maxBlockRange);
  }

  headBlock(): Promise<bigint> {
    return this.throttled(() => this.client.getBlockNumber({ cacheTime: 0 }));
  }

  /** The block, or null when the chain has none at that height (yet). */
  async block(blockNumber: bigint): Promise<ChainBlock | null> {
    const block = await this.throttled(() => this.client.getBlock({ blockNumber })).catch(
      (error: unknown) => {
        if (error instanceof Error && error.name === "BlockNotFoundError") return null;
        throw error;
      },
    );
    return block?.hash
      ? { number: blockNumber, hash: block.hash, time: new Date(Number(block.timestamp) * 1000) }
      : null;
  }

  /** The first block at or after `time` (binary search on block times), at most `head`. */
  async firstBlockAt(time: Date, head: bigint): Promise<bigint> {
    let low = 0n;
    let high = head;
    while (low < high) {
      const middle = (low + high) / 2n;
      const block = await this.block(middle);
      if (block && block.time >= time) high = middle;
      else low = middle + 1n;
    }
    return low;
  }

  /**
   * The transfers to or from `addresses` between two blocks (inclusive), one topic list of
   * addresses and one block range at a time, so the caller stores each piece with its addresses'
   * cursors before the next is read, and holds no more than one piece's logs.
   */
  async *ranges(
    addresses: readonly string[],
    fromBlock: bigint,
    toBlock: bigint,
  ): AsyncGenerator<TransferRange> {
    for (let index = 0; index < addresses.length; index += this.limits.addressesPerRequest) {
      yield* this.rangesOf(
        addresses.slice(index, index + this.limits.addressesPerRequest),
        fromBlock,
        toBlock,
      );
    }
  }

  private async *rangesOf(
    addresses: readonly string[],
    fromBlock: bigint,
    toBlock: bigint,
  ): AsyncGenerator<TransferRange> {
    let start = fromBlock;
    let failures = 0;
    while (start <= toBlock) {
      const end = start + this.span - 1n < toBlock ? start + this.span - 1n : toBlock;
      let transfers: TransferLog[];
      try {
        transfers = await this.read(addresses as `0x${string}`[], start, end);
      } catch (error) {
        // A refused range is asked again at once, narrower; anything else waits longer each time.
        if (this.span > 1n && isRangeRefusal(error)) {
          this.span /= 2n;
          continue;
        }
        failures += 1;
        if (failures >= this.limits.maxAttempts) throw error;
        const pause = Math.min(this.limits.backoffMs * 2 ** (failures - 1), MAX_BACKOFF_MS);
        await new Promise((resolve) => setTimeout(resolve, pause));
        continue;
      }
      failures = 0;
      yield { addresses, fromBlock: start, toBlock: end, transfers };
      start = end + 1n;
      const grown = this.span * 2n;
      this.span = grown < BigInt(this.limits.maxBlockRange) ? grown : BigInt(this.limits.maxBlockRange);
    }
  }

  /** One topic list's transfers in one range, both directions. */
  private async read(addresses: `0x${string}`[], fromBlock: bigint, toBlock: bigint): Promise<TransferLog[]> {
    const found = new Map<string, TransferLog>();
    for (const args of [{ to: addresses }, { from: addresses }]) {
      const logs = await this.throttled(() =>
        this.client.getLogs({
          address: this.usdcContract,
          event: TRANSFER_EVENT,
          args,
          fromBlock,
          toBlock,
          strict: true,
        }),
      );
      for (const log of logs) {
        if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue;
        // A transfer between two watched addresses answers both directions: it counts once.
        found.set(`${log.transactionHash}:${log.logIndex}`, {
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          from: log.args.from.toLowerCase(),
          to: log.args.to.toLowerCase(),
          value: log.args.value,
        });
      }
    }
    return [...found.values()].sort(byChainOrder);
  }
}
