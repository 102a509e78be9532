/** USDC has 6 decimals on every chain it is issued on; amounts are integer micro-USDC (bigint). */
export const USDC_DECIMALS = 6;

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/**
 * "12.5" → 12500000n. Only plain decimal text is money: no sign, exponent, thousands separator
 * or more than 6 decimals (a sub-unit amount cannot be paid on chain). null when not an amount.
 */
export function parseUsdcAmount(text: string): bigint | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, whole = "0", fraction = ""] = match;
  return BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction.padEnd(USDC_DECIMALS, "0"));
}

/** 12500000n → "12.500000": always all six decimals, so equal amounts are equal strings. */
export function formatUsdcUnits(units: bigint): string {
  const text = units.toString().padStart(USDC_DECIMALS + 1, "0");
  return `${text.slice(0, -USDC_DECIMALS)}.${text.slice(-USDC_DECIMALS)}`;
}
