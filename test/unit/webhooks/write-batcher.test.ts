import { describe, expect, it } from "vitest";
import { WriteBatcher } from "../../../src/webhooks/write-batcher";

/** A write that stays open until `finish` is called, recording each batch it was given. */
function heldWrites() {
  const batches: number[][] = [];
  const pending: { finish: (error?: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      pending.push({ finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { batches, pending, write };
}

describe("write batcher", () => {
  it("when items arrive while a write is open, then they go together in the next write, at most maxBatch at a time", async () => {
    const { batches, pending, write } = heldWrites();
    const batcher = new WriteBatcher(write, 2);
    const first = batcher.record(1);
    const rest = [2, 3, 4].map((item) => batcher.record(item));
    expect(batches).toEqual([[1]]);
    pending[0]?.finish();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1], [2, 3]]);
    pending[1]?.finish();
    await new Promise((resolve) => setImmediate(resolve));
    pending[2]?.finish();
    await Promise.all(rest);
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });

  it("when a write fails, then each of its items is rejected and later items are still written", async () => {
    const { batches, pending, write } = heldWrites();
    const batcher = new WriteBatcher(write, 10);
    const failed = batcher.record(1);
    const later = batcher.record(2);
    pending[0]?.finish(new Error("database gone"));
    await expect(failed).rejects.toThrow("database gone");
    await new Promise((resolve) => setImmediate(resolve));
    pending[1]?.finish();
    await later;
    expect(batches).toEqual([[1], [2]]);
  });
});
