import { UsdcChainReader } from "../chain/usdc-transfers";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { Logger } from "../logging/logger";
import { startLockedLoop } from "../scheduling/locked-loop";
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
 * One watcher per configured chain, run by the holder of the chain's advisory lock (any number
 * of processes may start it). Each round also expires due orders (idempotent: conditional
 * updates), so expiry needs no extra schedule.
 */
export function startSettlement(options: SettlementOptions): RunningSettlement {
  const { db, logger } = options;
  const loops = options.chains.map((chain) => {
    const watcher = new SettlementWatcher(
      db,
      chain,
      new UsdcChainReader(chain.rpcUrl, chain.usdcContract),
      logger,
    );
    return startLockedLoop({
      databaseUrl: options.databaseUrl,
      namespace: SETTLEMENT_LOCK_NAMESPACE,
      key: chain.chain,
      pollMs: options.pollMs,
      logger,
      round: async () => {
        await watcher.catchUp();
        const expired = await inTransaction(db, (tx) => expireDueOrders(tx), { timeoutMs: 60_000 });
        if (expired > 0) logger.info({ expired }, "expired payment orders");
      },
      // The RPC endpoint or the database failed: the cursor has not moved past anything unrecorded.
      // viem's messages quote the RPC URL, which often carries the provider's key in its path.
      describeFailure: (message) => ({
        chain: chain.chain,
        error: message.replaceAll(chain.rpcUrl, "<rpc_url>"),
      }),
      failureMessage: "settlement round failed; retrying",
    });
  });
  return { stop: async () => void (await Promise.all(loops.map((loop) => loop.stop()))) };
}
