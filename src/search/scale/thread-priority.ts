import { readlinkSync } from "node:fs";
import os from "node:os";

/**
 * Lowers the calling thread's scheduling priority, and only that thread's: on Linux a nice value
 * is per thread, and /proc/thread-self names the caller's thread id. Background threads (a
 * catalogue build) call it so that, when the cores are all busy, the kernel runs the thread that
 * answers requests first. Returns whether it did: not on other systems, or when refused.
 */
export function lowerThisThreadsPriority(nice = os.constants.priority.PRIORITY_BELOW_NORMAL): boolean {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    os.setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
