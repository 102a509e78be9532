import { z } from "zod";
import { GRADE_LETTERS } from "../../trust/grade";
import { HEALTH_STATES } from "../../trust/health";
import { CHECK_IDS, CHECK_RESULTS } from "../../trust/types";
import { WARNINGS } from "../../trust/warnings";
import { isoTimestamp } from "./common";

/** The trust verdicts on endpoint and service details (src/trust; docs/agents.md). */

export const checkSchema = z
  .strictObject({
    id: z.enum(CHECK_IDS).meta({ description: "The check's name (docs/agents.md, Checks and grades)." }),
    result: z
      .enum(CHECK_RESULTS)
      .meta({ description: "pass, warn, fail, or not_applicable when the check has nothing to judge." }),
    reason: z.string().meta({ description: "Why, in words." }),
    evidence: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "What was looked at (values, counts, times)." }),
  })
  .meta({ id: "Check" });

const trustFields = {
  health: z.enum(HEALTH_STATES).meta({
    description:
      "unknown (never probed), live, degraded (failures or a slow p99 in the last 24 h), down (the last probes got " +
      "no valid challenge for HEALTH_DOWN_AFTER), dead (down for HEALTH_DEAD_AFTER).",
  }),
  health_reason: z.string().nullable().meta({ description: "Why it has that health." }),
  health_changed_at: isoTimestamp.nullable().meta({ description: "When the health last changed." }),
  grade: z.enum(GRADE_LETTERS).nullable().meta({ description: "From the checks; null before any probe." }),
  score: z.number().int().min(0).max(100).nullable().meta({ description: "0–100, agreeing with the grade." }),
  warnings: z.array(z.enum(WARNINGS)).meta({ description: "What to know before paying (docs/agents.md)." }),
};

export const endpointTrustFields = {
  ...trustFields,
  checks: z.array(checkSchema).nullable().meta({ description: "The named checks; null before any probe." }),
};

export const serviceTrustFields = trustFields;

/** The verdicts a list item carries (the detail's names; its reasons and checks only on the detail). */
export const listTrustFields = {
  health: trustFields.health,
  grade: trustFields.grade,
  score: trustFields.score,
  warnings: trustFields.warnings,
};
