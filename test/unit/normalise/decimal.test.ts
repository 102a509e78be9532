import { describe, expect, it } from "vitest";
import {
  decimalToString,
  type ExactDecimal,
  parseUnsignedDecimal,
  shiftLeft,
  toWholeUnits,
} from "../../../src/normalise/decimal";

function read(text: string): ExactDecimal {
  const result = parseUnsignedDecimal(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.reason}`);
  return result.decimal;
}

describe("parseUnsignedDecimal", () => {
  it.each([
    ["0", "0"],
    ["007", "7"],
    ["12345", "12345"],
    ["12345.670", "12345.67"],
    ["0.000001", "0.000001"],
    [".5", "0.5"],
    ["1,234", "1234"],
    ["1,234,567.89", "1234567.89"],
    ["1 234", "1234"],
    ["1 234 567.5", "1234567.5"],
    ["12 345,67", "12345.67"],
    ["12.345,67", "12345.67"],
    ["99,5", "99.5"],
    ["0,25", "0.25"],
    ["1234,5", "1234.5"],
    ["1,2345", "1.2345"],
    ["10.000", "10"],
    ["123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789"],
  ])("when the text is %j, then the exact value is %s", (input, expected) => {
    expect(decimalToString(read(input))).toBe(expected);
  });

  it.each([
    "",
    ".",
    "12.",
    "12.3.4",
    "1.234.567",
    "1,23,456",
    "12345,678",
    "1,234,5",
    "1 234,567.8",
    "1  234",
    "12 34",
    "1e5",
    "-5",
    "+5",
    "١٢٣",
    "１２３",
    "9".repeat(65),
  ])("when the text is %j, then it is rejected", (input) => {
    expect(parseUnsignedDecimal(input).ok).toBe(false);
  });
});

describe("shiftLeft", () => {
  it.each<[string, number, string]>([
    ["12.3", 3, "12300"],
    ["1.2", 6, "1200000"],
    ["14.05", 3, "14050"],
    ["0.0012", 3, "1.2"],
    ["0.000001", 3, "0.001"],
    ["5", 0, "5"],
    ["1.1", 6, "1100000"],
  ])("when %s is shifted by %d places, then it is %s", (input, places, expected) => {
    expect(decimalToString(shiftLeft(read(input), places))).toBe(expected);
  });
});

describe("toWholeUnits", () => {
  it.each<[string, bigint, bigint]>([
    ["1.2", 1000n, 1200n],
    ["12.3456", 1000n, 12346n],
    ["12.3455", 1000n, 12346n],
    ["12.3454", 1000n, 12345n],
    ["0.0004", 1000n, 0n],
    ["0.0005", 1000n, 1n],
    ["7", 60n, 420n],
  ])(
    "when %s is converted with %d units per one, then it is %d units (half-up)",
    (input, units, expected) => {
      expect(toWholeUnits(read(input), units)).toBe(expected);
    },
  );
});
