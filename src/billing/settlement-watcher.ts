import type { UsdcChainReader } from "../chain/usdc-transfers";
import type { Database } from "../db/prisma-client";
import { queryRows } from "../db/read-pool";
import { inTransaction } from "../db/transaction";
import { Prisma } from "../generated/prisma/client";
import type { Logger } from "../logging/logger";
import { metrics } from "../metrics/metrics";
import { recordTransfer } from "./payment-order-transitions";
import type { SettlementChain } from "./settlement-chains";

/** Blocks read per getLogs range (providers bound a range; 2000 is accepted by the common ones). */
const BLOCKS_PER_RANGE = 2000n;

/**
 * Reads one chain's confirmed USDC transfers to deposit addresses, from the block after its
 * stored cursor up to the newest block with `confirmations` confirmations, and records them.
 * Each range's transfers and the cursor commit in one transaction, so a restart resumes exactly
 * after the last recorded range; reading a range twice adds nothing (transfers are unique by
 * chain, tx hash and log index). A block younger than the confirmations is never read, so a
 * reorganisation shallower than that changes nothing recorded. The caller holds the chain's lock.
 */
export class SettlementWatcher {
  constructor(
    private readonly db: Database,
    private readonly chain: SettlementChain,
    private readonly reader: UsdcChainReader,
    private readonly logger: Logger,
  ) {}

  /** Records every transfer up to the newest confirmed block; returns that block. */
  async catchUp(): Promise<bigint> {
    // The head first, then the addresses: a payment in a confirmed block was sent to an address
    // allocated before that block was mined, so it is in the list read afterwards.
    const head = await this.reader.headBlock();
    const safe = head - BigInt(this.chain.confirmations - 1);
    let cursor = (await this.storedCursor()) ?? (this.chain.startBlock ?? safe) - 1n;
    metrics.settlementBehind(this.chain.chain, head - cursor);
    const addresses = await this.addresses();
    while (cursor < safe) {
      const to = cursor + BLOCKS_PER_RANGE < safe ? cursor + BLOCKS_PER_RANGE : safe;
      const transfers = addresses.length > 0 ? await this.reader.transfersTo(addresses, cursor + 1n, to) : [];
      const times = new Map<bigint, Date>();
      for (const transfer of transfers) {
        if (!times.has(transfer.blockNumber)) {
          times.set(transfer.blockNumber, await this.reader.blockTime(transfer.blockNumber));
        }
      }
      const toTime = await this.reader.blockTime(to);
      const outcomes = await inTransaction(
        this.db,
        async (tx) => {
          const recorded: string[] = [];
          for (const transfer of transfers) {
            const blockTime = times.get(transfer.blockNumber) ?? new Date();
            recorded.push(await recordTransfer(tx, { ...transfer, chain: this.chain.chain, blockTime }));
          }
          await queryRows(
            tx,
            Prisma.sql`INSERT INTO settlement_cursors (chain, last_block, last_block_time, updated_at)
                     VALUES (${this.chain.chain}, ${to.toString()}::bigint, ${toTime}, now())
                     ON CONFLICT (chain) DO UPDATE
                       SET last_block = GREATEST(settlement_cursors.last_block, EXCLUDED.last_block),
                           last_block_time = GREATEST(settlement_cursors.last_block_time, EXCLUDED.last_block_time),
                           updated_at = now()`,
          );
          return recorded;
        },
        // A range of up to 2,000 blocks may carry many transfers, each a few statements.
        { timeoutMs: 60_000 },
      );
      if (transfers.length > 0) {
        this.logger.info(
          { chain: this.chain.chain, fromBlock: String(cursor + 1n), toBlock: String(to), outcomes },
          "recorded USDC transfers",
        );
      }
      cursor = to;
      metrics.settlementBehind(this.chain.chain, head - cursor);
    }
    return safe;
  }

  private async storedCursor(): Promise<bigint | null> {
    const [row] = await queryRows<{ last_block: string }>(
      this.db,
      Prisma.sql`SELECT last_block FROM settlement_cursors WHERE chain = ${this.chain.chain}`,
    );
    return row ? BigInt(row.last_block) : null;
  }

  /** Every address ever derived on the chain: released ones too, so late payments are recorded. */
  private async addresses(): Promise<string[]> {
    const rows = await queryRows<{ address: string }>(
      this.db,
      Prisma.sql`SELECT address FROM deposit_addresses WHERE chain = ${this.chain.chain} ORDER BY derivation_index`,
    );
    return rows.map((row) => row.address);
  }
}
