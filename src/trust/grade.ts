import { CHECK_IDS, type Check, type CheckId, type CheckResult } from "./types";

/**
 * Grade (A–F) and score (0–100) from checks: the one function for endpoints and services.
 *
 * Score: 100 minus each check's weight when it fails, half of it (rounded down) when it warns.
 * Grade: from the score (A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, else F), but never better than the
 * cap of a failed check (table below); the score is then lowered to the top of the capped grade,
 * so score and grade always agree.
 *
 * | check            | weight | a failure caps the grade at |
 * |------------------|--------|-----------------------------|
 * | answers_402      | 60     | F                           |
 * | challenge_valid  | 60     | F                           |
 * | atomic_amount    | 40     | D                           |
 * | known_network    | 40     | D                           |
 * | signing_domain   | 40     | D                           |
 * | svm_fee_payer    | 40     | D                           |
 * | pay_to_valid     | 40     | D                           |
 * | canonical_asset  | 30     | D                           |
 * | price_sane       | 30     | D                           |
 * | matches_listing  | 20     | C                           |
 * | responsive       | 20     | C                           |
 * | https            | 15     | C                           |
 * | self_dealing     | 30     | D                           |
 * | pay_to_exclusive | 10     | B                           |
 * | stable_terms     | 10     | B                           |
 * | version_channel  | 5      | B                           |
 * | input_described  | 5      | B                           |
 * | claims_observed  | 10     | B (it only warns)           |
 */
/** The grades, best first. */
export const GRADE_LETTERS = ["A", "B", "C", "D", "F"] as const;

export type Grade = (typeof GRADE_LETTERS)[number];

export const GRADE_TABLE: Record<CheckId, { weight: number; failCap: Grade }> = {
  answers_402: { weight: 60, failCap: "F" },
  challenge_valid: { weight: 60, failCap: "F" },
  atomic_amount: { weight: 40, failCap: "D" },
  known_network: { weight: 40, failCap: "D" },
  signing_domain: { weight: 40, failCap: "D" },
  svm_fee_payer: { weight: 40, failCap: "D" },
  pay_to_valid: { weight: 40, failCap: "D" },
  canonical_asset: { weight: 30, failCap: "D" },
  price_sane: { weight: 30, failCap: "D" },
  matches_listing: { weight: 20, failCap: "C" },
  responsive: { weight: 20, failCap: "C" },
  https: { weight: 15, failCap: "C" },
  pay_to_exclusive: { weight: 10, failCap: "B" },
  stable_terms: { weight: 10, failCap: "B" },
  version_channel: { weight: 5, failCap: "B" },
  input_described: { weight: 5, failCap: "B" },
  self_dealing: { weight: 30, failCap: "D" },
  claims_observed: { weight: 10, failCap: "B" },
};

/** Grades best first, with the lowest score each needs and the highest it allows. */
const GRADES: readonly { grade: Grade; min: number; max: number }[] = [
  { grade: "A", min: 90, max: 100 },
  { grade: "B", min: 80, max: 89 },
  { grade: "C", min: 65, max: 79 },
  { grade: "D", min: 50, max: 64 },
  { grade: "F", min: 0, max: 49 },
];

const rank = (grade: Grade): number => GRADES.findIndex((g) => g.grade === grade);

export interface Verdict {
  grade: Grade;
  score: number;
}

export function gradeOf(checks: readonly Pick<Check, "id" | "result">[]): Verdict {
  let points = 100;
  let cap: Grade = "A";
  for (const { id, result } of checks) {
    const { weight, failCap } = GRADE_TABLE[id];
    if (result === "fail") {
      points -= weight;
      if (rank(failCap) > rank(cap)) cap = failCap;
    } else if (result === "warn") points -= Math.floor(weight / 2);
  }
  const score = Math.max(0, points);
  const earned = GRADES.find((g) => score >= g.min) ?? { grade: "F", min: 0, max: 49 };
  const grade = rank(earned.grade) >= rank(cap) ? earned.grade : cap;
  const ceiling = GRADES[rank(grade)]?.max ?? 0;
  return { grade, score: Math.min(score, ceiling) };
}

const SEVERITY: readonly CheckResult[] = ["pass", "warn", "fail"];

/**
 * A service's checks from its endpoints': per check, the median result among the endpoints it
 * applies to (ties toward the worse), so one bad endpoint of twenty does not sink a service and
 * half of them does. A check that applies to none is not_applicable. gradeOf then grades them.
 */
export function serviceChecks(
  endpoints: readonly (readonly Pick<Check, "id" | "result">[])[],
): Pick<Check, "id" | "result">[] {
  return CHECK_IDS.map((id) => {
    const results = endpoints
      .map((checks) => checks.find((c) => c.id === id)?.result)
      .filter((r): r is CheckResult => r !== undefined && r !== "not_applicable")
      .sort((a, b) => SEVERITY.indexOf(a) - SEVERITY.indexOf(b));
    const median = results[Math.floor(results.length / 2)];
    return { id, result: median ?? "not_applicable" };
  });
}
