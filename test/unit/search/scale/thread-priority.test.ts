import { readlinkSync } from "node:fs";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { lowerThisThreadsPriority } from "../../../../src/search/scale/thread-priority";

describe("a background thread's priority", () => {
  it("when a thread lowers its priority, then that thread's nice value is the one asked for", () => {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    const before = os.getPriority(threadId);
    expect(lowerThisThreadsPriority(before + 1)).toBe(true);
    expect(os.getPriority(threadId)).toBe(before + 1);
  });
});
