import { describe, expect, it } from "vitest";
import { isRangeRefusal } from "../../../src/chain/transfer-logs";

describe("what counts as a refused range", () => {
  it.each([
    "query returned more than 10000 results",
    "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range",
    "block range is too large",
    "exceed maximum block range: 5000",
    "The request took too long to respond. Request timed out.",
    "too many topics in filter",
  ])("when an endpoint answers %j, then the range is narrowed", (message) => {
    expect(isRangeRefusal(new Error(message))).toBe(true);
  });

  it.each(["HTTP request failed. Status: 503", "fetch failed", "ECONNREFUSED"])(
    "when it answers %j, then the same range is retried after a pause",
    (message) => {
      expect(isRangeRefusal(new Error(message))).toBe(false);
    },
  );
});
