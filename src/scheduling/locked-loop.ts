import type { Logger } from "../logging/logger";
import { safeError } from "../logging/safe-error";
import { type HeldLock, tryLockSource } from "./source-lock";

export interface LockedLoopOptions {
  databaseUrl: string;
  /** The advisory lock: one holder of (namespace, key) across every process. */
  namespace: string;
  key: string;
  /** Pause between rounds. */
  pollMs: number;
  logger: Logger;
  /** One round of the work, run only by the lock's holder. */
  round: () => Promise<void>;
  /** What a failed round logs: the error with anything secret (an RPC URL's key) taken out. */
  describeFailure: (message: string) => Record<string, unknown>;
  failureMessage: string;
}

export interface RunningLoop {
  stop(): Promise<void>;
}

/**
 * A job any number of processes may run, done by one at a time: each round, a process that does
 * not hold the advisory lock tries to take it, and only the holder runs the round (if it dies,
 * Postgres frees the lock and another takes over within a round). A failed round is logged and
 * the next one starts after the usual pause.
 */
export function startLockedLoop(options: LockedLoopOptions): RunningLoop {
  let lock: HeldLock | null = null;
  const loop = startRepeating(async () => {
    try {
      lock ??= await tryLockSource(options.databaseUrl, options.key, options.namespace);
      if (lock) await options.round();
    } catch (error) {
      const { type, message } = safeError(error);
      options.logger.warn(options.describeFailure(`${type}: ${message}`), options.failureMessage);
    }
  }, options.pollMs);
  return {
    async stop() {
      await loop.stop();
      await lock?.release().catch(() => undefined);
      lock = null;
    },
  };
}

/**
 * Runs `round` now and then `pollMs` after each round ends, so rounds never overlap; `stop`
 * waits for a running round. `round` handles its own errors.
 */
export function startRepeating(round: () => Promise<void>, pollMs: number): RunningLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().finally(() => schedule(pollMs));
    }, delayMs);
  };
  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
