import { describe, expect, it } from "vitest";
import { cursorGroups } from "../../../src/activity/activity-watcher";

describe("which addresses are read together", () => {
  it("when a pay_to was added after the others, then it forms the lowest group and is read alone until it catches up", () => {
    const cursors = new Map([
      ["0xb", 900n],
      ["0xnew", -1n],
      ["0xa", 900n],
      ["0xc", 450n],
    ]);
    expect(cursorGroups(cursors)).toEqual([
      { cursor: -1n, addresses: ["0xnew"] },
      { cursor: 450n, addresses: ["0xc"] },
      { cursor: 900n, addresses: ["0xa", "0xb"] },
    ]);
  });

  it("when nothing is watched, then there is nothing to read", () => {
    expect(cursorGroups(new Map())).toEqual([]);
  });
});
