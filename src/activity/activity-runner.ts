import { announceCatalogueChange } from "../catalogue/catalogue-changes";
import { TransferLogReader } from "../chain/transfer-logs";
import type { Config } from "../config/config";
import type { Database } from "../db/prisma-client";
import type { Logger } from "../logging/logger";
import { type RunningLoop, startLockedLoop } from "../scheduling/locked-loop";
import type { ActivityChain } from "./activity-chains";
import { ActivityWatcher } from "./activity-watcher";
import { refreshActivity } from "./refresh-activity";

/** The advisory-lock namespace of chain-activity readers (one holder per chain across processes). */
export const ACTIVITY_LOCK_NAMESPACE = "x402-catalogue:activity";

export interface ActivityOptions {
  databaseUrl: string;
  db: Database;
  chains: readonly ActivityChain[];
  logger: Logger;
  /** Pause between rounds (ACTIVITY_POLL_SECONDS, in ms). */
  pollMs: number;
}

/** The readers of ACTIVITY_CHAINS, every ACTIVITY_POLL_SECONDS. */
export function startConfiguredActivity(
  config: Config,
  deps: Pick<ActivityOptions, "databaseUrl" | "db" | "logger">,
): RunningLoop {
  return startActivity({
    ...deps,
    chains: config.ACTIVITY_CHAINS,
    pollMs: config.ACTIVITY_POLL_SECONDS * 1000,
  });
}

/**
 * One reader per configured chain, run by the holder of the chain's advisory lock (npm start
 * and npm run worker both start it). After reading, a round recomputes the figures and flags
 * of every watched entry (one process at a time), which reach the API processes' in-memory
 * catalogue as a catalogue change.
 */
export function startActivity(options: ActivityOptions): RunningLoop {
  const { db, logger, chains } = options;
  const names = chains.map((chain) => chain.chain);
  const loops = chains.map((chain) => {
    const reader = new TransferLogReader(chain.rpcUrl, chain.usdcContract, chain.limits);
    const watcher = new ActivityWatcher(db, chain, reader, logger);
    return startLockedLoop({
      databaseUrl: options.databaseUrl,
      namespace: ACTIVITY_LOCK_NAMESPACE,
      key: chain.chain,
      pollMs: options.pollMs,
      logger,
      round: async () => {
        await watcher.catchUp();
        const flagged = await refreshActivity(db, names);
        // Figures that moved are catalogue changes (triggers note them): API processes hear at once.
        if (flagged !== null) await announceCatalogueChange(db);
        if (flagged)
          logger.info({ chain: chain.chain, flagged, requests: reader.requests }, "new activity flags");
      },
      // viem's messages quote the RPC URL, which often carries the provider's key in its path.
      describeFailure: (message) => ({
        chain: chain.chain,
        error: message.replaceAll(chain.rpcUrl, "<rpc_url>"),
      }),
      failureMessage: "chain activity round failed; retrying",
    });
  });
  return { stop: async () => void (await Promise.all(loops.map((loop) => loop.stop()))) };
}
