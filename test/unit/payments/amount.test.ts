import { describe, expect, it } from "vitest";
import { atomicToDecimal, decimalToAtomic, readAmount } from "../../../src/payments/amount";

describe("atomicToDecimal", () => {
  it.each([
    ["10000", "0.01"],
    ["1", "0.000001"],
    ["1500000", "1.5"],
    ["1000000", "1"],
    ["0", "0"],
    ["000010000", "0.01"],
  ])("converts %s atomic USDC units to %s", (atomic, decimal) => {
    expect(atomicToDecimal(atomic, 6)).toBe(decimal);
  });

  it("stays exact beyond the precision of a float", () => {
    // 123456789012345.678901 is not representable as a double.
    expect(atomicToDecimal("123456789012345678901", 6)).toBe("123456789012345.678901");
  });

  it("rejects a value that is not an integer string", () => {
    expect(() => atomicToDecimal("1.5", 6)).toThrow(/not an atomic amount/);
  });
});

describe("decimalToAtomic", () => {
  it.each([
    ["0.01", "10000"],
    [".5", "500000"],
    ["1.230000000", "1230000"],
    ["2", "2000000"],
  ])("converts %s USDC to %s atomic units", (decimal, atomic) => {
    expect(decimalToAtomic(decimal, 6)).toBe(atomic);
  });

  it("returns null for a value finer than 6 decimals", () => {
    expect(decimalToAtomic("0.0000001", 6)).toBeNull();
  });
});

describe("readAmount", () => {
  it("reads an integer string as a strict atomic amount", () => {
    expect(readAmount("amount", "10000")).toEqual({
      kind: "atomic",
      atomic: "10000",
      strict: true,
      warning: null,
    });
  });

  it("reads an integer JSON number as atomic but not strict, with a warning", () => {
    expect(readAmount("amount", 10000)).toEqual({
      kind: "atomic",
      atomic: "10000",
      strict: false,
      warning: "amount is a number: 10000",
    });
  });

  it.each([
    ["$0.01", "0.01"],
    ["0.25 USDC", "0.25"],
    [0.5, "0.5"],
  ])("reads the human price %s as the decimal %s", (raw, decimal) => {
    expect(readAmount("amount", raw)).toEqual({ kind: "decimal", decimal });
  });

  it("reports a missing amount", () => {
    expect(readAmount("maxAmountRequired", undefined)).toEqual({
      kind: "invalid",
      warning: "maxAmountRequired is missing",
    });
  });

  it("reports text that is no amount at all", () => {
    expect(readAmount("amount", "free")).toEqual({
      kind: "invalid",
      warning: "amount is not an amount: free",
    });
  });
});
