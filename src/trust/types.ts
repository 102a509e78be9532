/**
 * The named checks run on every endpoint, each with a result, a reason a person can read and the
 * evidence it rests on. Ids and results are part of the API: clients filter on them.
 */
/** The checks of a challenge's payment options (not applicable when it offers none). */
export const OPTION_CHECK_IDS = [
  "atomic_amount",
  "known_network",
  "canonical_asset",
  "signing_domain",
  "svm_fee_payer",
  "pay_to_valid",
] as const;

export const CHECK_IDS = [
  "answers_402",
  "challenge_valid",
  "version_channel",
  ...OPTION_CHECK_IDS,
  "matches_listing",
  "input_described",
  "https",
  "responsive",
  "price_sane",
  "stable_terms",
  "pay_to_exclusive",
  "claims_observed",
  "self_dealing",
] as const;

export type CheckId = (typeof CHECK_IDS)[number];

export const CHECK_RESULTS = ["pass", "warn", "fail", "not_applicable"] as const;

export type CheckResult = (typeof CHECK_RESULTS)[number];

export interface Check {
  id: CheckId;
  result: CheckResult;
  reason: string;
  /** What was looked at (values, counts, times as ISO strings); null when there is nothing to show. */
  evidence: Record<string, unknown> | null;
}

export const check = (
  id: CheckId,
  result: CheckResult,
  reason: string,
  evidence: Record<string, unknown> | null = null,
): Check => ({ id, result, reason, evidence });
