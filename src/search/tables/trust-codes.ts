import type { ListedTrust } from "../../catalogue/trust-queries";
import { GRADE_LETTERS, type Grade } from "../../trust/grade";
import { HEALTH_STATES, type Health } from "../../trust/health";
import { WARNINGS, type Warning } from "../../trust/warnings";

/**
 * An endpoint's trust verdicts as the small integers its columns hold: the health's and grade's
 * places in HEALTH_STATES and GRADE_LETTERS (best grade 0; -1: no grade), the score (-1: none) and
 * the warnings as one bit each (bit k: WARNINGS[k]). A filter compares codes, never strings.
 */
export interface TrustCodes {
  health: number;
  grade: number;
  score: number;
  warnings: number;
}

/** The health code of dead. */
export const DEAD = HEALTH_STATES.indexOf("dead");

export const gradeCode = (grade: Grade | null): number =>
  grade === null ? -1 : GRADE_LETTERS.indexOf(grade);

/** One bit per health given (bit k: HEALTH_STATES[k]). */
export const healthBits = (health: readonly Health[]): number =>
  health.reduce((bits, state) => bits | (1 << HEALTH_STATES.indexOf(state)), 0);

/** One bit per warning given (bit k: WARNINGS[k]). */
export const warningBits = (warnings: readonly Warning[]): number =>
  warnings.reduce((bits, warning) => bits | (1 << WARNINGS.indexOf(warning)), 0);

export function trustCodes(trust: ListedTrust): TrustCodes {
  return {
    health: HEALTH_STATES.indexOf(trust.health),
    grade: gradeCode(trust.grade),
    score: trust.score ?? -1,
    warnings: warningBits(trust.trustWarnings),
  };
}
