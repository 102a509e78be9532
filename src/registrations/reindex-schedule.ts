import type { Logger } from "../logging/logger";
import { type RunningLoop, startLockedLoop } from "../scheduling/locked-loop";
import { dueRegisteredOrigins } from "./registrations";
import { type IndexDependencies, reindexOrigin } from "./reindex";

/** Namespace of the schedule's advisory lock: one process re-indexes at a time. */
const LOCK_NAMESPACE = "x402-catalogue:registered-reindex";
/** How often the schedule looks for origins that became due. */
const LOOK_EVERY_MS = 60_000;

/**
 * Re-indexes every registered origin (one with a listed registration) every `everyMs`, one
 * origin after another, in the process holding the schedule's lock. Origins are due by their
 * last run, so a restart re-indexes nothing that ran recently. Stopping aborts the origin being
 * checked (its run is recorded as aborted and delists nothing).
 */
export function startRegisteredReindex(
  deps: IndexDependencies,
  everyMs: number,
  logger: Logger,
): RunningLoop {
  const stopping = new AbortController();
  const loop = startLockedLoop({
    databaseUrl: deps.databaseUrl,
    namespace: LOCK_NAMESPACE,
    key: "registered origins",
    pollMs: Math.min(everyMs, LOOK_EVERY_MS),
    logger,
    round: async () => {
      const due = await dueRegisteredOrigins(deps.db, everyMs);
      if (due.length > 0) logger.info({ origins: due.length }, "re-indexing registered origins");
      for (const origin of due) {
        if (stopping.signal.aborted) return;
        await reindexOrigin(deps, origin, "schedule", stopping.signal);
      }
    },
    describeFailure: (message) => ({ error: message }),
    failureMessage: "a round of the registered origins' re-index failed; the next round tries again",
  });
  return {
    async stop() {
      stopping.abort();
      await loop.stop();
    },
  };
}
