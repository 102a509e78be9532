import { CLAIM_FACTOR, claimExceeds, type ObservedJson } from "../../activity/figures";
import { parseUsdcAmount } from "../../billing/usdc-amount";
import { type Check, check } from "../types";

/**
 * The checks of what the chain shows an endpoint's pay_tos were paid (src/activity), pure:
 * claims_observed compares the claimed 30-day figures of the endpoint (its feed) and of its
 * service (the directory, the feeds) with the adjusted observed ones; self_dealing looks at the
 * endpoint's flagged payments. Both are not_applicable when no chain is read for its pay_tos.
 */
export interface ActivityFacts {
  /** The endpoint's observed figures (endpoint_activity); null when no chain reads its pay_tos. */
  endpoint: ObservedJson | null;
  /** Its service's (service_activity); null likewise. */
  service: ObservedJson | null;
}

/** Flagged volume at or above this share of the raw 30-day volume fails self_dealing; less warns. */
export const SELF_DEALING_FAIL_SHARE = { numerator: 1n, denominator: 2n };
/** Transactions of each rule an evidence lists. */
const EVIDENCE_TRANSFERS = 5;

function claimsObserved({ endpoint, service }: ActivityFacts): Check {
  if (endpoint === null && service === null)
    return check("claims_observed", "not_applicable", "no chain is read for its pay_tos");
  const claims = [
    ...(endpoint?.claims ?? []).map((claim) => ({ of: "endpoint", ...claim })),
    ...(service?.claims ?? []).map((claim) => ({ of: "service", ...claim })),
  ];
  if (claims.length === 0)
    return check("claims_observed", "not_applicable", "no 30-day figure is claimed to compare");
  const over = claims.filter(claimExceeds);
  if (over.length === 0)
    return check("claims_observed", "pass", `claims within ${CLAIM_FACTOR}× of what the chain shows`, {
      factor: CLAIM_FACTOR,
      claims,
    });
  const named = over.map(
    (claim) => `${claim.source} ${claim.figure} ${claim.claimed} against ${claim.observed}`,
  );
  return check(
    "claims_observed",
    "warn",
    `claimed over ${CLAIM_FACTOR}× what the chain shows (adjusted, 30 days): ${named.join("; ")}`,
    { factor: CLAIM_FACTOR, claims: over },
  );
}

function selfDealing(observed: ObservedJson | null): Check {
  if (observed === null) return check("self_dealing", "not_applicable", "no chain is read for its pay_tos");
  const raw = observed.raw["30d"];
  const adjusted = observed.adjusted["30d"];
  const evidence = {
    raw_volume_usdc: raw.volume_usdc,
    adjusted_volume_usdc: adjusted.volume_usdc,
    raw_tx_count: raw.tx_count,
    adjusted_tx_count: adjusted.tx_count,
    rules: observed.flags.map((flag) => ({
      rule: flag.rule,
      transfer_count: flag.transfer_count,
      volume_usdc: flag.volume_usdc,
      transactions: flag.transfers.slice(0, EVIDENCE_TRANSFERS).map((transfer) => transfer.tx_hash),
    })),
  };
  if (raw.tx_count === 0)
    return check("self_dealing", "not_applicable", "no payment observed in 30 days", evidence);
  const flagged = raw.tx_count - adjusted.tx_count;
  if (flagged === 0)
    return check("self_dealing", "pass", `none of ${raw.tx_count} payments flagged`, evidence);
  const rawUnits = parseUsdcAmount(raw.volume_usdc) ?? 0n;
  const flaggedUnits = rawUnits - (parseUsdcAmount(adjusted.volume_usdc) ?? 0n);
  const most =
    rawUnits > 0n &&
    flaggedUnits * SELF_DEALING_FAIL_SHARE.denominator >= rawUnits * SELF_DEALING_FAIL_SHARE.numerator;
  const rules = observed.flags.map((flag) => flag.rule).join(", ");
  return check(
    "self_dealing",
    most ? "fail" : "warn",
    `${flagged} of ${raw.tx_count} payments flagged (${rules}): ${adjusted.volume_usdc} of ${raw.volume_usdc} USDC left`,
    evidence,
  );
}

export function activityChecks(facts: ActivityFacts): Check[] {
  return [claimsObserved(facts), selfDealing(facts.endpoint)];
}
