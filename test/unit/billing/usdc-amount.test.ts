import { describe, expect, it } from "vitest";
import { formatUsdcUnits, parseUsdcAmount } from "../../../src/billing/usdc-amount";

describe("USDC amounts as exact decimal strings", () => {
  it.each([
    ["12.5", 12_500_000n],
    ["12.50", 12_500_000n],
    ["0.000001", 1n],
    ["1", 1_000_000n],
    ["999999999999.999999", 999_999_999_999_999_999n],
    ["0.1", 100_000n],
  ])("when %s is parsed, then it is %s micro-USDC", (text, units) => {
    expect(parseUsdcAmount(text)).toBe(units);
  });

  it.each(["", "1e3", "-1", "+1", "1.", ".5", "1,000.00", "0.1234567", " 1", "0x10", "1000000000000"])(
    "when %j is parsed, then it is not an amount",
    (text) => {
      expect(parseUsdcAmount(text)).toBeNull();
    },
  );

  it.each([
    [0n, "0.000000"],
    [1n, "0.000001"],
    [12_500_000n, "12.500000"],
    [100_000_000_000_000_001n, "100000000000.000001"],
  ])("when %s micro-USDC is formatted, then %s", (units, text) => {
    expect(formatUsdcUnits(units)).toBe(text);
  });
});
