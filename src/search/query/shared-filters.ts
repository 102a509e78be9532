import { decimalParam, enumParam, integerParam, repeatableParam } from "../../http/schemas/common";
import { GRADE_LETTERS } from "../../trust/grade";
import { HEALTH_STATES } from "../../trust/health";
import { WARNINGS } from "../../trust/warnings";
import { filter } from "./filter-entry";

/** The filters the service and endpoint searches share: trust verdicts and observed payments. */

/** Every health but dead: what a list shows unless `health` is given. */
export const SHOWN_HEALTH = HEALTH_STATES.filter((health) => health !== "dead");

/**
 * The trust filters (src/trust, docs/agents.md "Health" and "Checks and grades"), the same on
 * services and endpoints; `of` names what they judge ("services" or "endpoints").
 */
export function trustFilters(of: string) {
  return {
    health: filter(
      "health",
      repeatableParam(enumParam(HEALTH_STATES), HEALTH_STATES.length)
        .optional()
        .meta({
          description:
            `Only ${of} with this health; repeat for more: unknown (never probed), live, degraded, down or dead ` +
            `(down for HEALTH_DEAD_AFTER). Without it every health but dead: dead ${of} are left out unless asked ` +
            "for (health=dead). A service's health is its best endpoint's, so a service is dead when all its " +
            "endpoints are.",
          example: ["live", "degraded"],
        }),
    ),
    min_grade: filter(
      "minGrade",
      enumParam(GRADE_LETTERS)
        .optional()
        .meta({
          description: `Lowest trust grade, A (best) to F: min_grade=B keeps ${of} graded A or B. Ungraded ${of} (never probed) do not match.`,
          example: "B",
        }),
    ),
    min_score: filter(
      "minScore",
      integerParam(0, 100)
        .optional()
        .meta({
          description: `Lowest trust score, 0–100 (agreeing with the grade). Unscored ${of} do not match.`,
        }),
    ),
    warning: filter(
      "warnings",
      repeatableParam(enumParam(WARNINGS), WARNINGS.length)
        .optional()
        .meta({
          description:
            `Only ${of} with this trust warning; repeat for more: every warning given must be present. ` +
            `Warnings: ${WARNINGS.join(", ")} (docs/agents.md).`,
          example: "slow",
        }),
    ),
    no_warning: filter(
      "noWarnings",
      repeatableParam(enumParam(WARNINGS), WARNINGS.length)
        .optional()
        .meta({
          description: `Leave out ${of} with this trust warning; repeat for more: none of those given may be present.`,
          example: "decoy_price",
        }),
    ),
  };
}

/**
 * The observed-payment filters (src/activity, docs/agents.md "Observed volume"), the same on
 * services and endpoints: what the chain shows the pay_tos of each were paid over 30 days.
 */
export function activityFilters(of: string) {
  return {
    min_observed_volume: filter(
      "minObservedVolume",
      decimalParam.optional().meta({
        description:
          `Lowest observed 30-day volume in USDC, a decimal string: what the chain shows the ${of}' pay_tos ` +
          "received (raw: flagged transfers included; see `observed`), compared exactly. " +
          `${of} whose pay_tos no chain reads (ACTIVITY_CHAINS) do not match.`.replace(/^./, (c) =>
            c.toUpperCase(),
          ),
        example: "100",
      }),
    ),
    min_unique_payers: filter(
      "minUniquePayers",
      integerParam(0, 2_147_483_647)
        .optional()
        .meta({
          description: `Lowest number of distinct addresses that paid the ${of}' pay_tos over 30 days, as the chain shows (raw).`,
          example: 5,
        }),
    ),
  };
}
