import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { ItemPasses, PassRunner } from "../tables/page-order";
import { ITEMS_PER_SLICE } from "./thresholds";

/**
 * Runs work a slice per turn of the event loop: each pass over ITEMS_PER_SLICE items, then the
 * next turn. Orders computed ahead beside requests being answered take 20-60 ms of CPU at
 * 100,000 services; in one turn of the answering thread, on two busy cores, that delayed
 * requests by 60-100 ms.
 */
export const runPassesInSlices: PassRunner = async <T>({ size, passes, result }: ItemPasses<T>) => {
  for (const pass of passes) {
    let from = 0;
    do {
      const to = Math.min(size, from + ITEMS_PER_SLICE);
      pass(from, to);
      from = to;
      await yieldToEventLoop();
    } while (from < size);
  }
  return result();
};
