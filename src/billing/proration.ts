/**
 * What an upgrade in the middle of a period costs: the difference of the two plans' prices for
 * the part of the period that is left,
 *
 *   amount = (target price − current price) × (period end − now) / (period end − period start)
 *
 * with prices in micro-USDC and times in milliseconds (the precision timestamps are stored
 * with), computed on integers and rounded half up to a whole micro-USDC (USDC's 6th decimal):
 * a half unit or more rounds up, less rounds down. Never negative: a cheaper plan is a downgrade
 * (scheduled for the period end, no invoice), and a moment at or after the end leaves nothing.
 */
export function proratedUpgradeUnits(input: {
  currentPriceUnits: bigint;
  targetPriceUnits: bigint;
  periodStart: Date;
  periodEnd: Date;
  at: Date;
}): bigint {
  const difference = input.targetPriceUnits - input.currentPriceUnits;
  const periodMs = BigInt(input.periodEnd.getTime() - input.periodStart.getTime());
  const remainingMs = BigInt(Math.max(0, input.periodEnd.getTime() - input.at.getTime()));
  if (difference <= 0n || periodMs <= 0n) return 0n;
  const remaining = remainingMs < periodMs ? remainingMs : periodMs;
  // floor((2·d·r + p) / (2·p)) = d·r/p rounded half up, in integers only.
  return (2n * difference * remaining + periodMs) / (2n * periodMs);
}
