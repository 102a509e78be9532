import { describe, expect, it } from "vitest";
import { combinedExitCode } from "../../../src/crawl-run/exit-code";

describe("combinedExitCode", () => {
  it.each([
    [[0, 0], 0],
    [[0, 3], 3],
    [[3, 1], 1],
    [[1, 130, 3], 130],
    [[], 0],
  ])("when the crawls exit with %j, then the command exits with %i", (codes, expected) => {
    expect(combinedExitCode(codes)).toBe(expected);
  });
});
