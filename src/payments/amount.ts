/**
 * Exact conversions between atomic token amounts and decimal strings. Prices are compared and
 * stored as strings: a float would turn 0.000001 USDC into 9.99...e-7 somewhere down the line.
 */

const ATOMIC = /^\d+$/;
// A human price as servers sometimes put it where an atomic amount belongs: "$0.01", "0.01 USDC".
const HUMAN_DECIMAL = /^\$?\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:usdc|usd)?$/i;

/** "10000" with 6 decimals → "0.01"; trailing zeros are dropped so equal prices compare equal. */
export function atomicToDecimal(atomic: string, decimals: number): string {
  if (!ATOMIC.test(atomic)) throw new Error(`not an atomic amount: ${atomic}`);
  const digits = BigInt(atomic)
    .toString()
    .padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/** "0.01" with 6 decimals → "10000"; null when the value is finer than the token can express. */
export function decimalToAtomic(decimal: string, decimals: number): string | null {
  const [whole = "", fraction = ""] = decimal.split(".");
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > decimals) return null;
  return BigInt(`${whole || "0"}${significant.padEnd(decimals, "0")}`).toString();
}

export type AmountReading =
  /** `strict` is false when the value had to be coerced (a JSON number instead of a string). */
  | { kind: "atomic"; atomic: string; strict: boolean; warning: string | null }
  /** A human decimal; its unit depends on the asset, which the caller knows. */
  | { kind: "decimal"; decimal: string }
  | { kind: "invalid"; warning: string };

/** Interprets an amount field as written, without deciding yet what a decimal means. */
export function readAmount(field: string, raw: unknown): AmountReading {
  if (raw === undefined || raw === null || raw === "") {
    return { kind: "invalid", warning: `${field} is missing` };
  }
  if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) {
    return { kind: "atomic", atomic: String(raw), strict: false, warning: `${field} is a number: ${raw}` };
  }
  // JSON.parse has already rounded an integer beyond 2^53 (…993 arrives as …992), so its digits
  // are not the seller's; read as a decimal it would even become a price in whole dollars.
  if (typeof raw === "number" && raw > 0 && Number.isInteger(raw) && !Number.isSafeInteger(raw)) {
    return {
      kind: "invalid",
      warning: `${field} is a number too large to be exact: ${raw} (send it as a string)`,
    };
  }
  if (typeof raw !== "string" && typeof raw !== "number") {
    return { kind: "invalid", warning: `${field} is not a string` };
  }
  const text = String(raw).trim();
  if (typeof raw === "string" && ATOMIC.test(text)) {
    return { kind: "atomic", atomic: BigInt(text).toString(), strict: true, warning: null };
  }
  const human = HUMAN_DECIMAL.exec(text);
  if (human?.[1]) return { kind: "decimal", decimal: human[1] };
  return { kind: "invalid", warning: `${field} is not an amount: ${text}` };
}
