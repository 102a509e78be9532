import {
  decimalToNumber,
  decimalToString,
  type ExactDecimal,
  integerDigits,
  MAGNITUDE_PATTERN,
  MAGNITUDES,
  parseUnsignedDecimal,
  shiftLeft,
  toWholeUnits,
} from "./decimal";
import { invalid, missing, ok } from "./parsed";
import { collapseWhitespace, isMissing } from "./text";
import type { Parsed } from "./types";

/**
 * Collapsed text with typographic minus signs (U+2212 minus, U+2013 en dash) turned into "-", so a
 * negative value is reported as negative rather than as an unreadable character.
 */
function prepare(text: string): string {
  return (collapseWhitespace(text) ?? "").replace(/[\u2212\u2013]/g, "-");
}

/**
 * Shapes that look numeric but are not one exact value. Caught first so the reason says why
 * instead of "unrecognised format": "1e5" (exponent), "<0.01", "~5", "1K+" (bounds, estimates).
 */
function rejectNonExact(text: string): string | null {
  if (/\d\s*e\s*[-+]?\d/i.test(text)) return "exponent notation is not accepted";
  if (/^[<>≤≥~≈]|\+$|^(?:about|approx\.?|approximately|over|under|up to)\s/i.test(text)) {
    return "a bound or an approximation, not an exact value";
  }
  return null;
}

/**
 * Shared front half of every numeric parser: missing placeholders → missing, then collapsing,
 * then the non-exact shapes. Returns the prepared text or a finished result.
 */
function begin<T>(raw: string | null | undefined): { text: string } | { done: Parsed<T> } {
  if (raw == null || isMissing(raw)) return { done: missing() };
  const text = prepare(raw);
  const reason = rejectNonExact(text);
  return reason === null ? { text } : { done: invalid(raw, reason) };
}

function readDecimal(raw: string, numberText: string, magnitude?: string): ExactDecimal | Parsed<never> {
  const read = parseUnsignedDecimal(numberText.trim());
  if (!read.ok) return invalid(raw, read.reason);
  const places = magnitude === undefined ? 0 : (MAGNITUDES[magnitude.toLowerCase()] ?? 0);
  return shiftLeft(read.decimal, places);
}

function isParsed(value: ExactDecimal | Parsed<never>): value is Parsed<never> {
  return "kind" in value;
}

// ---------------------------------------------------------------------------------------------
// Percent

const PERCENT = /^(?<sign>-)?\s*(?<number>[\d.,][\d., ]*?)\s*[%\uFF05]$/;

/**
 * "99.82%", "99.8 %", "99,5 %" (decimal comma), "100%" → 0..100. The percent sign is required: a
 * bare "0.99" could be a ratio or a percentage, and guessing would silently be off by 100×.
 */
export function parsePercent(raw: string | null | undefined): Parsed<number> {
  const start = begin<number>(raw);
  if ("done" in start) return start.done;
  const input = raw ?? "";
  const match = PERCENT.exec(start.text);
  if (match?.groups?.number === undefined) return invalid(input, "not a percentage (expected e.g. 99.8%)");
  if (match.groups.sign !== undefined) return invalid(input, "a percentage must be between 0 and 100");
  const decimal = readDecimal(input, match.groups.number);
  if (isParsed(decimal)) return decimal;
  const value = decimalToNumber(decimal);
  return value <= 100 ? ok(value) : invalid(input, "a percentage must be between 0 and 100");
}

// ---------------------------------------------------------------------------------------------
// Durations

/** Microseconds per unit: the finest unit, so every accepted value is a whole number of them. */
const MICROS_PER_UNIT: Readonly<Record<string, bigint>> = {
  us: 1n,
  µs: 1n, // U+00B5 micro sign
  μs: 1n, // U+03BC Greek mu, which some fonts/pages use instead
  microsecond: 1n,
  microseconds: 1n,
  ms: 1_000n,
  msec: 1_000n,
  msecs: 1_000n,
  millisecond: 1_000n,
  milliseconds: 1_000n,
  s: 1_000_000n,
  sec: 1_000_000n,
  secs: 1_000_000n,
  second: 1_000_000n,
  seconds: 1_000_000n,
  m: 60_000_000n, // in a duration, "1m 5s" is a minute
  min: 60_000_000n,
  mins: 60_000_000n,
  minute: 60_000_000n,
  minutes: 60_000_000n,
  h: 3_600_000_000n,
  hr: 3_600_000_000n,
  hrs: 3_600_000_000n,
  hour: 3_600_000_000n,
  hours: 3_600_000_000n,
};

/** A bare number on a response-time card is milliseconds: that is what every directory shows. */
const DEFAULT_DURATION_UNIT = "ms";

const DURATION_PART = /^(?<number>[\d.,][\d., ]*?)\s*(?<unit>[a-zµμ]+)?$/i;

/** Compound durations ("1m 5s", "1 min, 5 s", "1s200ms") split where a unit is followed by a number. */
const DURATION_SPLIT = /(?<=[a-zµμ])\s*,?\s*(?=[\d.])/i;

type DurationPart = { micros: bigint; perUnit: bigint } | { reason: string };

function parseDurationPart(part: string, allowBare: boolean): DurationPart {
  const match = DURATION_PART.exec(part);
  if (match?.groups?.number === undefined) return { reason: `"${part}" is not a duration` };
  const unitText = match.groups.unit?.toLowerCase();
  if (unitText === undefined && !allowBare) return { reason: `"${part}" has no unit` };
  const perUnit = MICROS_PER_UNIT[unitText ?? DEFAULT_DURATION_UNIT];
  if (perUnit === undefined) return { reason: `unknown time unit "${match.groups.unit}"` };
  const read = parseUnsignedDecimal(match.groups.number.trim());
  if (!read.ok) return { reason: read.reason };
  return { micros: toWholeUnits(read.decimal, perUnit), perUnit };
}

/**
 * "p50 120 ms", "median 120 ms", "avg 120 ms": the typical response time, which is what the field
 * holds. Any other percentile ("p95 480 ms") is the slow tail and is refused, never read as it.
 */
const TYPICAL_QUALIFIER = /^(?:p50|median|avg\.?|average|mean)\s*:?\s*(?=[\d.])/i;
const TAIL_PERCENTILE = /^p\d{1,3}(?:\.\d+)?\b/i;

/**
 * "412 ms", "1,204ms", "1.2 s", "0.8 sec", "350 milliseconds", "1m 5s", bare "412" (ms) → milliseconds,
 * rounded to at most 3 decimals (whole microseconds). In a compound value each unit may appear once,
 * largest first, as people write them; "5s 1m" is more likely two values run together.
 */
export function parseDurationMs(raw: string | null | undefined): Parsed<number> {
  const start = begin<number>(raw);
  if ("done" in start) return start.done;
  const input = raw ?? "";
  const text = start.text.replace(TYPICAL_QUALIFIER, "");
  if (TAIL_PERCENTILE.test(text)) {
    return invalid(input, "a tail percentile, not the average or median response time");
  }
  if (text.startsWith("-")) return invalid(input, "a duration cannot be negative");
  const pieces = text.split(DURATION_SPLIT);
  let totalMicros = 0n;
  let previousUnit: bigint | null = null;
  for (const piece of pieces) {
    const part = parseDurationPart(piece, pieces.length === 1);
    if ("reason" in part) return invalid(input, part.reason);
    if (previousUnit !== null && part.perUnit >= previousUnit) {
      return invalid(input, "units of a compound duration must go from largest to smallest");
    }
    previousUnit = part.perUnit;
    totalMicros += part.micros;
  }
  if (totalMicros > BigInt(Number.MAX_SAFE_INTEGER)) return invalid(input, "duration is too large");
  // One division of an exact integer: the result is the double nearest to the 3-decimal value.
  return ok(Number(totalMicros) / 1000);
}

// ---------------------------------------------------------------------------------------------
// USDC amounts

/**
 * The column is NUMERIC(38, 6) and USDC itself has 6 decimals: more fraction digits cannot be a
 * real USDC amount, and more than 32 integer digits cannot be stored.
 */
const USDC_MAX_FRACTION_DIGITS = 6;
const USDC_MAX_INTEGER_DIGITS = 32;

/**
 * Optional "-" (before or after the prefix), an optional "$" / "US$" / "USD" / "USDC" prefix, the
 * number, an optional magnitude and an optional "USD"/"USDC" suffix. USD is accepted because
 * directories print USDC volumes with "$" (USDC is the dollar stablecoin); other currencies are not.
 */
const USDC_AMOUNT = new RegExp(
  `^(?<sign1>-)?\\s*(?:US\\$|\\$|USDC|USD)?\\s*(?<sign2>-)?\\s*(?<number>[\\d.,][\\d., ]*?)\\s*` +
    `(?<magnitude>${MAGNITUDE_PATTERN})?\\s*(?:USDC|USD)?$`,
  "i",
);

/**
 * "12,345.67 USDC", "$12.3K", "1.2M USDC", "USDC 42", "0.000001" → exact decimal string without
 * trailing fraction zeros ("12300", "1200000", "12345.67"). No float is involved at any step.
 */
export function parseUsdcAmount(raw: string | null | undefined): Parsed<string> {
  const start = begin<string>(raw);
  if ("done" in start) return start.done;
  const input = raw ?? "";
  const match = USDC_AMOUNT.exec(start.text);
  if (match?.groups?.number === undefined) {
    return invalid(input, 'not a USDC amount (only "$", "USD" and "USDC" amounts are accepted)');
  }
  if (match.groups.sign1 !== undefined || match.groups.sign2 !== undefined) {
    return invalid(input, "a negative amount is not a volume");
  }
  const decimal = readDecimal(input, match.groups.number, match.groups.magnitude);
  if (isParsed(decimal)) return decimal;
  if (decimal.scale > USDC_MAX_FRACTION_DIGITS) {
    return invalid(input, `USDC has at most ${USDC_MAX_FRACTION_DIGITS} decimal places`);
  }
  if (integerDigits(decimal) > USDC_MAX_INTEGER_DIGITS) return invalid(input, "amount is too large");
  return ok(decimalToString(decimal));
}

// ---------------------------------------------------------------------------------------------
// Counts

/** Words a stat card may print after a count ("1,234 txs", "56 payers"). */
const COUNT_NOUNS = "txs?|txns?|transactions?|payers?|buyers?|users?|calls?|requests?|payments?";

const COUNT = new RegExp(
  `^(?<sign>-)?\\s*(?<number>[\\d.,][\\d., ]*?)\\s*(?<magnitude>${MAGNITUDE_PATTERN})?(?:\\s*(?:${COUNT_NOUNS}))?$`,
  "i",
);

/**
 * "1,234", "1 234", "14.0K", "14.05K", "1.2M" → a whole number. A value that is not whole after
 * scaling ("1.5", "1.2345K") is invalid rather than rounded: it is probably not a count at all.
 */
export function parseCount(raw: string | null | undefined): Parsed<number> {
  const start = begin<number>(raw);
  if ("done" in start) return start.done;
  const input = raw ?? "";
  const match = COUNT.exec(start.text);
  if (match?.groups?.number === undefined) return invalid(input, "not a count");
  if (match.groups.sign !== undefined) return invalid(input, "a count cannot be negative");
  const decimal = readDecimal(input, match.groups.number, match.groups.magnitude);
  if (isParsed(decimal)) return decimal;
  if (decimal.scale > 0) return invalid(input, "a count must be a whole number");
  if (decimal.mantissa > BigInt(Number.MAX_SAFE_INTEGER)) return invalid(input, "count is too large");
  return ok(Number(decimal.mantissa));
}
