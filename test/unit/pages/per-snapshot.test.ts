import { describe, expect, it } from "vitest";
import { PerSnapshot } from "../../../src/pages/per-snapshot";

describe("PerSnapshot", () => {
  it("when the snapshot is the same, then the value is computed once; a new snapshot computes again", async () => {
    const memo = new PerSnapshot<number>();
    let runs = 0;
    const compute = async () => ++runs;
    expect(await memo.get("a", compute)).toBe(1);
    expect(await memo.get("a", compute)).toBe(1);
    expect(await memo.get("b", compute)).toBe(2);
    expect(runs).toBe(2);
  });

  it("when a computation fails, then it is not kept and the next request computes again", async () => {
    const memo = new PerSnapshot<number>();
    await expect(memo.get("a", async () => Promise.reject(new Error("database gone")))).rejects.toThrow(
      "database gone",
    );
    expect(await memo.get("a", async () => 7)).toBe(7);
  });
});
