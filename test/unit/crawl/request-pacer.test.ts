import { describe, expect, it } from "vitest";
import { RequestPacer } from "../../../src/sources/html-directory/request-pacer";

describe("RequestPacer", () => {
  it("when requests are taken back to back, then their starts are spaced by the per-minute ceiling", async () => {
    const pacer = new RequestPacer(3_000); // one every 20 ms
    const starts: number[] = [];
    for (let i = 0; i < 4; i++) {
      await pacer.take();
      starts.push(performance.now());
    }
    const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(20);
  });

  it("when requests are taken together, then each waits its own turn", async () => {
    const pacer = new RequestPacer(3_000);
    const started = performance.now();
    await Promise.all([pacer.take(), pacer.take(), pacer.take()]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });
});
