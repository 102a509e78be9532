/**
 * Exact decimal arithmetic on visible numbers. Money must never pass through a float ("0.1 + 0.2"),
 * and even counts like "14.05K" go wrong with floats (14.05 * 1000 = 14050.000000000002), so the
 * parsers read numbers into a BigInt mantissa and a power-of-ten scale and only shift digits.
 */

/** A non-negative exact decimal: `mantissa × 10^-scale`, always with trailing fraction zeros removed. */
export interface ExactDecimal {
  readonly mantissa: bigint;
  readonly scale: number;
}

export type DecimalResult = { ok: true; decimal: ExactDecimal } | { ok: false; reason: string };

/** Longer digit strings are not statistics but noise (or an attempt to make BigInt parsing slow). */
const MAX_NUMBER_LENGTH = 64;

/**
 * The number layouts accepted, each with its grouping and decimal characters. Only layouts whose
 * reading is unambiguous for an English-language directory are listed:
 * - "1,234" is grouping (the English convention), while "99,5" / "0,25" / "1234,5" can only be a
 *   decimal comma (a comma followed by exactly three digits is therefore never a decimal comma);
 * - "12 345,67" and "12.345,67" combine two different separators, so each role is clear;
 * - "1.234.567" (dots only) is rejected: it looks as much like a version number as like a count.
 * Spaces are single ASCII spaces here: callers collapse U+00A0/U+202F first.
 */
const LAYOUTS: readonly { pattern: RegExp; group: string; point: string }[] = [
  { pattern: /^\d+$/, group: "", point: "." },
  { pattern: /^\d*\.\d+$/, group: "", point: "." },
  { pattern: /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/, group: ",", point: "." },
  { pattern: /^\d{1,3}(?: \d{3})+(?:\.\d+)?$/, group: " ", point: "." },
  { pattern: /^\d{1,3}(?: \d{3})+,\d+$/, group: " ", point: "," },
  { pattern: /^\d{1,3}(?:\.\d{3})+,\d+$/, group: ".", point: "," },
  { pattern: /^\d+,(?:\d{1,2}|\d{4,})$/, group: "", point: "," },
];

/** Reads an unsigned number such as "12,345.67", "1 234", "99,5" or ".5" exactly. */
export function parseUnsignedDecimal(text: string): DecimalResult {
  if (text.length > MAX_NUMBER_LENGTH) return { ok: false, reason: "number is too long" };
  const layout = LAYOUTS.find((candidate) => candidate.pattern.test(text));
  if (layout === undefined) return { ok: false, reason: `"${text}" is not a recognised number layout` };
  const ungrouped = layout.group === "" ? text : text.split(layout.group).join("");
  const [whole = "", fraction = ""] = ungrouped.split(layout.point);
  return {
    ok: true,
    decimal: trimZeros({ mantissa: BigInt(whole + fraction || "0"), scale: fraction.length }),
  };
}

/** Removes trailing fraction zeros so "12345.670" and "12345.67" compare and print the same. */
function trimZeros(decimal: ExactDecimal): ExactDecimal {
  let { mantissa, scale } = decimal;
  while (scale > 0 && mantissa % 10n === 0n) {
    mantissa /= 10n;
    scale -= 1;
  }
  return { mantissa, scale };
}

/** Multiplies by 10^places (places ≥ 0), e.g. for K/M/B suffixes, by moving the decimal point only. */
export function shiftLeft(decimal: ExactDecimal, places: number): ExactDecimal {
  const scale = decimal.scale - places;
  if (scale >= 0) return trimZeros({ mantissa: decimal.mantissa, scale });
  return { mantissa: decimal.mantissa * 10n ** BigInt(-scale), scale: 0 };
}

/** Plain decimal notation, never exponent notation: 12345.67, 0.000001, 0. */
export function decimalToString(decimal: ExactDecimal): string {
  const digits = decimal.mantissa.toString();
  if (decimal.scale === 0) return digits;
  const padded = digits.padStart(decimal.scale + 1, "0");
  const cut = padded.length - decimal.scale;
  return `${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/** Number of digits before the decimal point ("0.5" has 1). */
export function integerDigits(decimal: ExactDecimal): number {
  return decimalToString(decimal).split(".")[0]?.length ?? 0;
}

/**
 * The decimal times `unitsPerOne`, rounded half-up to a whole number of units. Used to convert a
 * duration into microseconds exactly before the single, final conversion to a JS number.
 */
export function toWholeUnits(decimal: ExactDecimal, unitsPerOne: bigint): bigint {
  const divisor = 10n ** BigInt(decimal.scale);
  return (decimal.mantissa * unitsPerOne * 2n + divisor) / (divisor * 2n);
}

/**
 * Nearest JS number. Parsing the decimal string gives the correctly rounded double, which
 * repeated float multiplication would not.
 */
export function decimalToNumber(decimal: ExactDecimal): number {
  return Number(decimalToString(decimal));
}

/**
 * Magnitude suffixes shown on stat cards ("$12.3K", "1.2M", "1.5bn") as powers of ten. The key
 * is lower-case: in a money or count context "m" is million, not milli or minutes.
 */
export const MAGNITUDES: Readonly<Record<string, number>> = {
  k: 3,
  thousand: 3,
  m: 6,
  mn: 6,
  mm: 6,
  million: 6,
  b: 9,
  bn: 9,
  billion: 9,
};

export const MAGNITUDE_PATTERN = "k|thousand|mn|mm|million|m|bn|billion|b";

/** Exact comparison: negative, zero or positive as a is less than, equal to or greater than b. */
export function compareDecimals(a: ExactDecimal, b: ExactDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.mantissa * 10n ** BigInt(scale - a.scale);
  const y = b.mantissa * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
