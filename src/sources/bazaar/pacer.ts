import { setTimeout as sleep } from "node:timers/promises";

/**
 * Spaces request starts at least `intervalMs` apart, however many workers ask: each caller
 * reserves the next free slot, then waits for it. Politeness towards a public feed that
 * thousands of agents share.
 */
export function createPacer(intervalMs: number): (signal?: AbortSignal) => Promise<void> {
  let nextSlot = 0;
  return async (signal) => {
    const now = Date.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + intervalMs;
    if (slot > now) await sleep(slot - now, undefined, { signal });
  };
}
