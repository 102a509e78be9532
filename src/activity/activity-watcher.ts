import { LRUCache } from "lru-cache";
import type { ChainBlock, TransferLogReader } from "../chain/transfer-logs";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { Logger } from "../logging/logger";
import type { ActivityChain } from "./activity-chains";
import {
  addressCursors,
  pruneBlocks,
  recordedBlocks,
  rewindChain,
  storeRange,
  watchedPayTos,
} from "./activity-store";

/** Range ends whose hashes are kept and compared: a reorganisation deeper than this many ranges is not seen. */
const KEPT_BLOCKS = 128;
const DAY_MS = 86_400_000;
/** Blocks remembered within one catch-up: the topic lists of one range share their blocks. */
const BLOCKS_KEPT = 10_000;

/** Addresses that share a cursor, read together; the lowest cursor first. */
export function cursorGroups(
  cursors: ReadonlyMap<string, bigint>,
): Array<{ cursor: bigint; addresses: string[] }> {
  const groups = new Map<bigint, string[]>();
  for (const [address, cursor] of cursors) {
    const group = groups.get(cursor);
    if (group) group.push(address);
    else groups.set(cursor, [address]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([cursor, addresses]) => ({ cursor, addresses: addresses.sort() }));
}

/**
 * Reads one chain's USDC Transfer logs to and from every watched pay_to, from each address's
 * cursor up to the newest block with `confirmations` confirmations, and stores them one topic
 * list and one range at a time (so memory holds one piece's logs, whatever the backfill's size). Addresses
 * with the same cursor are read together; a group behind the others (pay_tos added later) is
 * read up to the next group's cursor, then the two move on as one, so a new pay_to is backfilled
 * without reading the others again. Each piece's transfers and its addresses' cursors commit together, and a
 * transfer is stored once (chain, transaction, log index), so a restart neither loses nor
 * doubles one. Before reading, the hash of the newest range end is compared with the chain's:
 * after a reorganisation everything past the newest end that still matches is read again.
 * The caller holds the chain's lock.
 */
export class ActivityWatcher {
  constructor(
    private readonly db: Database,
    private readonly chain: ActivityChain,
    private readonly reader: TransferLogReader,
    private readonly logger: Logger,
  ) {}

  /** Stores every transfer up to the newest confirmed block; returns that block. */
  async catchUp(): Promise<bigint> {
    const chain = this.chain.chain;
    const safe = (await this.reader.headBlock()) - BigInt(this.chain.confirmations - 1);
    await this.rewindAfterReorganisation();
    const addresses = [...new Set((await watchedPayTos(this.db, chain)).map((row) => row.address))];
    const stored = await addressCursors(this.db, chain);
    const fresh = addresses.some((address) => !stored.has(address));
    const start = fresh ? await this.startBlock(safe) : safe;
    const cursors = new Map(addresses.map((address) => [address, stored.get(address) ?? start - 1n]));
    const blocks = new LRUCache<bigint, ChainBlock>({ max: BLOCKS_KEPT });
    const blockOf = async (number: bigint, what: string) => {
      const known = blocks.get(number);
      if (known) return known;
      const block = await this.reader.block(number);
      if (!block) throw new Error(`block ${number} ${what} is missing`);
      blocks.set(number, block);
      return block;
    };
    for (;;) {
      const [lowest, next] = cursorGroups(cursors);
      if (!lowest || lowest.cursor >= safe) break;
      const target = next && next.cursor < safe ? next.cursor : safe;
      for await (const range of this.reader.ranges(lowest.addresses, lowest.cursor + 1n, target)) {
        const times = new Map<bigint, Date>();
        for (const { blockNumber } of range.transfers) {
          if (!times.has(blockNumber))
            times.set(blockNumber, (await blockOf(blockNumber, "of a stored log")).time);
        }
        const end = await blockOf(range.toBlock, "below the confirmed head");
        const inserted = await inTransaction(this.db, (tx) => storeRange(tx, chain, range, times, end), {
          timeoutMs: 60_000,
        });
        for (const address of range.addresses) cursors.set(address, range.toBlock);
        if (inserted > 0) {
          this.logger.info(
            { chain, fromBlock: String(range.fromBlock), toBlock: String(range.toBlock), inserted },
            "stored USDC transfers of watched pay_tos",
          );
        }
      }
    }
    await pruneBlocks(this.db, chain, KEPT_BLOCKS);
    return safe;
  }

  /** Where a pay_to read for the first time starts: start_block, else the first block of backfill_days ago. */
  private async startBlock(safe: bigint): Promise<bigint> {
    if (this.chain.startBlock !== undefined) return this.chain.startBlock;
    return this.reader.firstBlockAt(new Date(Date.now() - this.chain.backfillDays * DAY_MS), safe);
  }

  private async rewindAfterReorganisation(): Promise<void> {
    const recorded = await recordedBlocks(this.db, this.chain.chain, KEPT_BLOCKS);
    let keep: bigint | null = null;
    for (const block of recorded) {
      const now = await this.reader.block(block.number);
      if (now?.hash === block.hash) {
        keep = block.number;
        break;
      }
    }
    const newest = recorded[0];
    if (!newest || keep === newest.number) return;
    const oldest = recorded[recorded.length - 1] as (typeof recorded)[number];
    const rewindTo = keep ?? oldest.number - 1n;
    this.logger.warn(
      { chain: this.chain.chain, fromBlock: String(rewindTo + 1n), toBlock: String(newest.number) },
      "chain reorganised: reading these blocks again",
    );
    await rewindChain(this.db, this.chain.chain, rewindTo);
  }
}
