import { describe, expect, it } from "vitest";
import { parseCount, parseDurationMs, parsePercent, parseUsdcAmount } from "../../../src/normalise/values";

const PLACEHOLDERS = [
  "",
  "   ",
  "—",
  "–",
  "-",
  "--",
  "N/A",
  "n/a",
  "NA",
  "none",
  "null",
  "unknown",
  "?",
  null,
  undefined,
];

describe("parsePercent", () => {
  it.each([
    ["99.82%", 99.82],
    ["99.8 %", 99.8],
    ["99.8\u00A0%", 99.8],
    ["99.8\u202F%", 99.8],
    ["100%", 100],
    ["100.00%", 100],
    ["0%", 0],
    ["0.0 %", 0],
    ["99,5 %", 99.5],
    ["99,95%", 99.95],
    ["  99.9%\n", 99.9],
    [".5%", 0.5],
    ["99.999999%", 99.999999],
    ["50％", 50],
  ])("when the text is %j, then the percentage is %d", (input, expected) => {
    expect(parsePercent(input)).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["above 100", "100.01%"],
    ["far above 100", "250%"],
    ["grouped thousands above 100", "1,000%"],
    ["negative", "-1%"],
    ["unicode minus", "\u22125%"],
    ["double percent sign", "99.9%%"],
    ["no percent sign", "99.9"],
    ["percent sign first", "% 99.9"],
    ["two decimal points", "99.9.9%"],
    ["exponent notation", "1e2%"],
    ["a bound", "<1%"],
    ["an approximation", "~99%"],
    ["a plus suffix", "99%+"],
    ["a range", "99-100%"],
    ["an emoji", "99.9% 🔥"],
    ["words", "ninety-nine percent"],
    ["an undecoded HTML entity", "99.9&nbsp;%"],
    ["an encoded percent entity", "99.9&#37;"],
    ["comma followed by three digits (grouping, so 99 500)", "99,500%"],
    ["a fraction ratio", "0.998"],
  ])("when the text is %s, then it is invalid", (_label, input) => {
    const parsed = parsePercent(input);
    expect(parsed).toMatchObject({ kind: "invalid", raw: input });
  });

  it.each(PLACEHOLDERS)("when the text is the placeholder %j, then it is missing (never 0)", (input) => {
    expect(parsePercent(input)).toEqual({ kind: "missing" });
  });

  it("when invalid, then the reason explains the range", () => {
    expect(parsePercent("101%")).toMatchObject({ reason: expect.stringContaining("between 0 and 100") });
  });
});

describe("parseDurationMs", () => {
  it.each([
    ["412 ms", 412],
    ["412ms", 412],
    ["412 MS", 412],
    ["1,204ms", 1204],
    ["1,204 ms", 1204],
    ["1 204 ms", 1204],
    ["1\u202F204\u00A0ms", 1204],
    ["1.2 s", 1200],
    ["1.2s", 1200],
    ["1,2 s", 1200],
    ["0.8 sec", 800],
    ["0.8 secs", 800],
    ["2 seconds", 2000],
    ["1 second", 1000],
    ["350 milliseconds", 350],
    ["350 msec", 350],
    ["412", 412],
    ["412.5", 412.5],
    ["0", 0],
    ["0 ms", 0],
    ["12.3456 ms", 12.346],
    ["12.3454 ms", 12.345],
    ["0.0004 ms", 0],
    ["850 µs", 0.85],
    ["850 μs", 0.85],
    ["850us", 0.85],
    ["1m 5s", 65000],
    ["1m5s", 65000],
    ["1 min 5 s", 65000],
    ["1 min, 5 s", 65000],
    ["2 minutes", 120000],
    ["1s 200ms", 1200],
    ["1h", 3600000],
    ["0.1 s", 100],
    ["0.3 s", 300],
    [".5s", 500],
    ["p50 120 ms", 120],
    ["median: 1.2 s", 1200],
    ["Avg. 412ms", 412],
  ])("when the text is %j, then the duration is %d ms", (input, expected) => {
    expect(parseDurationMs(input)).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["negative", "-5 ms"],
    ["unicode minus", "\u2212412 ms"],
    ["unknown unit", "5 fortnights"],
    ["days are not a response time unit", "2 days"],
    ["exponent notation", "1e5 ms"],
    ["two decimal points", "12.3.4 ms"],
    ["unit only", "ms"],
    ["units in the wrong order", "5s 1m"],
    ["a repeated unit", "1s 2s"],
    ["a bare number in a compound", "1s 200"],
    ["a bound", "<1 ms"],
    ["an approximation", "~400ms"],
    ["an emoji", "⚡ 412 ms"],
    ["an undecoded entity", "412&nbsp;ms"],
    ["a range", "400-500 ms"],
    ["a percent", "40%"],
    ["huge beyond safe integers", "99999999999999999999 s"],
    ["too many digits", "1".repeat(80)],
    ["a tail percentile", "p95 480 ms"],
    ["a fractional tail percentile", "p99.9 2 s"],
  ])("when the text is %s, then it is invalid", (_label, input) => {
    expect(parseDurationMs(input)).toMatchObject({ kind: "invalid", raw: input });
  });

  it.each(PLACEHOLDERS)("when the text is the placeholder %j, then it is missing (never 0)", (input) => {
    expect(parseDurationMs(input)).toEqual({ kind: "missing" });
  });
});

describe("parseUsdcAmount", () => {
  it.each([
    ["12,345.67 USDC", "12345.67"],
    ["$12,345.67", "12345.67"],
    ["$12,345.670", "12345.67"],
    ["12345.670 USDC", "12345.67"],
    ["$12.3K", "12300"],
    ["$12.3k", "12300"],
    ["1.2M USDC", "1200000"],
    ["1.2 M USDC", "1200000"],
    ["1.5B", "1500000000"],
    ["1.5bn", "1500000000"],
    ["2.5 million", "2500000"],
    ["$0.0012K", "1.2"],
    ["USDC 42", "42"],
    ["USDC42", "42"],
    ["42 usdc", "42"],
    ["42 USD", "42"],
    ["US$42", "42"],
    ["$ 42", "42"],
    ["$42 USDC", "42"],
    ["0.000001", "0.000001"],
    ["$0", "0"],
    ["$0.00", "0"],
    ["0", "0"],
    ["12 345,67 USDC", "12345.67"],
    ["12\u202F345,67\u00A0USDC", "12345.67"],
    ["12.345,67 USDC", "12345.67"],
    ["1 234 567 USDC", "1234567"],
    ["1,234,567,890,123,456,789.123456", "1234567890123456789.123456"],
    ["0,5 USDC", "0.5"],
    ["$.50", "0.5"],
    ["00042", "42"],
    ["123456789012345678901234567890.5", "123456789012345678901234567890.5"],
  ])("when the text is %j, then the amount is %j", (input, expected) => {
    expect(parseUsdcAmount(input)).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["dollar then minus", "$-5"],
    ["minus then dollar", "-$5"],
    ["negative with suffix", "-5 USDC"],
    ["unicode minus", "\u22125 USDC"],
    ["en dash as minus", "–5 USDC"],
    ["accounting negative", "($5.00)"],
    ["euro", "€5"],
    ["pound", "£5"],
    ["ether", "5 ETH"],
    ["tether", "5 USDT"],
    ["euro code", "5 EUR"],
    ["bitcoin sign", "₿0.1"],
    ["exponent notation", "1e5"],
    ["exponent notation with dollar", "$1E+5"],
    ["two decimal points", "12.3.4"],
    ["dot grouping without decimal comma", "1.234.567"],
    ["indian grouping", "1,23,456"],
    ["broken grouping", "12,34,5.6"],
    ["mixed space and comma grouping", "1 234,567.8"],
    ["a bound", "<$0.01"],
    ["an approximation", "~$5K"],
    ["a plus suffix", "$1K+"],
    ["double dollar", "$$5"],
    ["a range", "$5-10"],
    ["words", "five dollars"],
    ["unknown magnitude", "5 T"],
    ["emoji", "💰 $5"],
    ["undecoded entity", "$5&nbsp;USDC"],
    ["more than 6 decimals", "0.0000001"],
    ["more than 6 decimals left after K scaling", "0.0000000001K"],
    ["more than 32 integer digits", "123456789012345678901234567890123"],
    ["huge after scaling", "99999999999999999999999999999B"],
    ["too many characters", `$${"1".repeat(100)}`],
    ["a percent", "5%"],
  ])("when the text is %s, then it is invalid", (_label, input) => {
    expect(parseUsdcAmount(input)).toMatchObject({ kind: "invalid", raw: input });
  });

  it("when the amount is negative, then the reason says so", () => {
    expect(parseUsdcAmount("$-5")).toMatchObject({ reason: expect.stringContaining("negative") });
  });

  it("when the currency is not USDC, then the reason names the accepted currencies", () => {
    expect(parseUsdcAmount("€5")).toMatchObject({ reason: expect.stringContaining("USDC") });
  });

  it("when a value would suffer float error, then the string is still exact", () => {
    // 0.1 + 0.2 style: 1.1 * 1e6 is 1100000.0000000002 in floats.
    expect(parseUsdcAmount("1.1M")).toEqual({ kind: "value", value: "1100000" });
    expect(parseUsdcAmount("$0.29K")).toEqual({ kind: "value", value: "290" });
  });

  it.each(PLACEHOLDERS)("when the text is the placeholder %j, then it is missing (never 0)", (input) => {
    expect(parseUsdcAmount(input)).toEqual({ kind: "missing" });
  });
});

describe("parseCount", () => {
  it.each([
    ["1,234", 1234],
    ["987", 987],
    ["0", 0],
    ["1 234", 1234],
    ["1\u00A0234", 1234],
    ["1\u202F234\u202F567", 1234567],
    ["14.0K", 14000],
    ["14K", 14000],
    ["14k", 14000],
    ["14.05K", 14050],
    ["14,05K", 14050],
    ["1.2M", 1200000],
    ["1.2 M", 1200000],
    ["2.5B", 2500000000],
    ["0.29K", 290],
    ["1,234 txs", 1234],
    ["56 payers", 56],
    ["1 payer", 1],
    ["3.4K transactions", 3400],
    ["9,007,199,254,740,991", Number.MAX_SAFE_INTEGER],
  ])("when the text is %j, then the count is %d", (input, expected) => {
    expect(parseCount(input)).toEqual({ kind: "value", value: expected });
  });

  it.each([
    ["a plain fraction", "1.5"],
    ["a dot-decimal that looks like grouping", "1.234"],
    ["a fraction after scaling", "1.2345K"],
    ["negative", "-5"],
    ["unicode minus", "\u22125"],
    ["exponent notation", "1e5"],
    ["two decimal points", "12.3.4"],
    ["a bound", ">1K"],
    ["a plus suffix", "1K+"],
    ["an approximation", "~100"],
    ["a currency", "$5"],
    ["a percent", "50%"],
    ["an emoji", "1,234 🚀"],
    ["words", "many"],
    ["unknown noun", "5 apples"],
    ["beyond safe integers", "9,007,199,254,740,993"],
    ["huge with magnitude", "99999999999B"],
    ["indian grouping", "1,23,456"],
    ["an undecoded entity", "1&nbsp;234"],
  ])("when the text is %s, then it is invalid", (_label, input) => {
    expect(parseCount(input)).toMatchObject({ kind: "invalid", raw: input });
  });

  it("when a count is not whole, then the reason says so", () => {
    expect(parseCount("1.5")).toMatchObject({ reason: expect.stringContaining("whole") });
  });

  it.each(PLACEHOLDERS)("when the text is the placeholder %j, then it is missing (never 0)", (input) => {
    expect(parseCount(input)).toEqual({ kind: "missing" });
  });
});
