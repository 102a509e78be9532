import { describe, expect, it } from "vitest";
import { GRADE_TABLE, gradeOf, serviceChecks } from "../../../src/trust/grade";
import { CHECK_IDS, type CheckId, type CheckResult } from "../../../src/trust/types";

const all = (result: CheckResult, overrides: Partial<Record<CheckId, CheckResult>> = {}) =>
  CHECK_IDS.map((id) => ({ id, result: overrides[id] ?? result }));

describe("gradeOf", () => {
  it("when every check passes, then A and 100", () => {
    expect(gradeOf(all("pass"))).toEqual({ grade: "A", score: 100 });
  });

  it("when only a minor check fails, then the grade is capped at B and the score at 89", () => {
    expect(gradeOf(all("pass", { version_channel: "fail" }))).toEqual({ grade: "B", score: 89 });
  });

  it("when the endpoint does not answer 402, then F whatever else passes", () => {
    expect(gradeOf(all("pass", { answers_402: "fail" }))).toEqual({ grade: "F", score: 40 });
  });

  it("when the signing domain is missing, then at best D", () => {
    expect(gradeOf(all("pass", { signing_domain: "fail" })).grade).toBe("D");
  });

  it("when checks only warn, then points are lost but no cap applies", () => {
    expect(gradeOf(all("pass", { responsive: "warn", stable_terms: "warn" }))).toEqual({
      grade: "B",
      score: 85,
    });
  });

  it("when a check is not applicable, then it costs nothing", () => {
    expect(gradeOf(all("not_applicable"))).toEqual({ grade: "A", score: 100 });
  });

  it("every check has a row in the table", () => {
    expect(Object.keys(GRADE_TABLE).sort()).toEqual([...CHECK_IDS].sort());
  });
});

describe("serviceChecks", () => {
  it("when one endpoint of three fails a check, then the service passes it; two of three, it fails", () => {
    const good = all("pass");
    const bad = all("pass", { https: "fail" });
    expect(serviceChecks([good, good, bad]).find((c) => c.id === "https")?.result).toBe("pass");
    expect(serviceChecks([good, bad, bad]).find((c) => c.id === "https")?.result).toBe("fail");
    expect(serviceChecks([good, bad]).find((c) => c.id === "https")?.result).toBe("fail");
  });
});
