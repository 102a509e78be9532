import { describe, expect, it } from "vitest";
import { BodyBuffers } from "../../../src/http/body-buffers";

describe("BodyBuffers", () => {
  it("when a buffer is given back, then the next take of a fitting size reuses it", () => {
    const buffers = new BodyBuffers(1024, 4);
    const first = buffers.take(100);
    expect(first.length).toBe(1024);
    buffers.giveBack(first);
    expect(buffers.take(1024)).toBe(first);
  });

  it("when buffers are still lent, then each take gets a distinct buffer", () => {
    const buffers = new BodyBuffers(1024, 4);
    const lent = [buffers.take(10), buffers.take(10), buffers.take(10)];
    expect(new Set(lent).size).toBe(3);
  });

  it("when an answer is larger than the pooled size, then it gets a buffer of its own that is never pooled", () => {
    const buffers = new BodyBuffers(1024, 4);
    const large = buffers.take(5000);
    expect(large.length).toBe(5000);
    buffers.giveBack(large);
    expect(buffers.take(10)).not.toBe(large);
  });

  it("when more buffers come back than the pool keeps, then the extra ones are dropped", () => {
    const buffers = new BodyBuffers(1024, 2);
    const lent = [buffers.take(1), buffers.take(1), buffers.take(1)];
    for (const buffer of lent) buffers.giveBack(buffer);
    const again = new Set([buffers.take(1), buffers.take(1), buffers.take(1)]);
    expect(lent.filter((buffer) => again.has(buffer))).toHaveLength(2);
  });
});
