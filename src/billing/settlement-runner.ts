import { UsdcChainReader } from "../chain/usdc-transfers";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { Logger } from "../logging/logger";
import { safeError } from "../logging/safe-error";
import { type HeldLock, tryLockSource } from "../scheduling/source-lock";
import { expireDueOrders } from "./payment-order-transitions";
import type { SettlementChain } from "./settlement-chains";
import { SettlementWatcher } from "./settlement-watcher";

/** The advisory-lock namespace of chain watchers (one holder per chain across processes). */
export const SETTLEMENT_LOCK_NAMESPACE = "x402-catalogue:settlement";

export interface SettlementOptions {
  databaseUrl: string;
  db: Database;
  chains: readonly SettlementChain[];
  logger: Logger;
  /** Pause between rounds (SETTLEMENT_POLL_SECONDS, in ms). */
  pollMs: number;
}

export interface RunningSettlement {
  stop(): Promise<void>;
}

/**
 * One watcher per configured chain. Any number of processes may run this: each round, a process
 * that does not hold the chain's advisory lock tries to take it, and only the holder reads the
 * chain (if it dies, Postgres frees the lock and another takes over within a round). Each round
 * also expires due orders (idempotent: conditional updates), so expiry needs no extra schedule.
 */
export function startSettlement(options: SettlementOptions): RunningSettlement {
  const loops = options.chains.map((chain) => new ChainLoop(options, chain));
  for (const loop of loops) loop.start();
  return { stop: async () => void (await Promise.all(loops.map((loop) => loop.stop()))) };
}

class ChainLoop {
  private readonly watcher: SettlementWatcher;
  private lock: HeldLock | null = null;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly options: SettlementOptions,
    private readonly chain: SettlementChain,
  ) {
    const reader = new UsdcChainReader(chain.rpcUrl, chain.usdcContract);
    this.watcher = new SettlementWatcher(options.db, chain, reader, options.logger);
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    await this.lock?.release().catch(() => undefined);
    this.lock = null;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.runRound().finally(() => this.schedule(this.options.pollMs));
    }, delayMs);
  }

  private async runRound(): Promise<void> {
    const { logger, db, databaseUrl } = this.options;
    try {
      this.lock ??= await tryLockSource(databaseUrl, this.chain.chain, SETTLEMENT_LOCK_NAMESPACE);
      if (!this.lock) return;
      await this.watcher.catchUp();
      const expired = await inTransaction(db, (tx) => expireDueOrders(tx), { timeoutMs: 60_000 });
      if (expired > 0) logger.info({ expired }, "expired payment orders");
    } catch (error) {
      // The RPC endpoint or the database failed: the cursor has not moved past anything unrecorded.
      // viem's messages quote the RPC URL, which often carries the provider's key in its path.
      const { type, message } = safeError(error);
      const shown = message.replaceAll(this.chain.rpcUrl, "<rpc_url>");
      logger.warn(
        { chain: this.chain.chain, error: `${type}: ${shown}` },
        "settlement round failed; retrying",
      );
    }
  }
}
