import { enumParam, integerParam, repeatableParam } from "../../http/schemas/common";
import { GRADE_LETTERS } from "../../trust/grade";
import { HEALTH_STATES } from "../../trust/health";
import { WARNINGS } from "../../trust/warnings";
import { filter } from "./filter-entry";

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
