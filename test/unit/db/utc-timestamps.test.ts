import { describe, expect, it } from "vitest";
import { isoFromUtcOutput } from "../../../src/db/utc-timestamps";

describe("isoFromUtcOutput", () => {
  it.each([
    ["2026-01-02 03:04:05+00", "2026-01-02T03:04:05.000Z"],
    ["2026-01-02 03:04:05.6+00", "2026-01-02T03:04:05.600Z"],
    ["2026-01-02 03:04:05.67+00", "2026-01-02T03:04:05.670Z"],
    ["2026-01-02 03:04:05.678+00", "2026-01-02T03:04:05.678Z"],
    ["2026-12-31 23:59:59.999999+00", "2026-12-31T23:59:59.999Z"],
  ])("when Postgres writes %s in a UTC session, then it becomes %s", (text, iso) => {
    expect(isoFromUtcOutput(text)).toBe(iso);
    expect(isoFromUtcOutput(text)).toBe(new Date(iso).toISOString());
  });

  it("when the text has another offset, then it is still converted correctly through Date", () => {
    expect(isoFromUtcOutput("2026-01-02 03:04:05.5+02")).toBe("2026-01-02T01:04:05.500Z");
  });
});
