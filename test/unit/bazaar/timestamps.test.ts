import { describe, expect, it } from "vitest";
import { parseTimestamp } from "../../../src/sources/bazaar/timestamps";

const ISO = "2025-10-20T22:40:00.000Z";

describe("parseTimestamp", () => {
  it.each([
    ["Unix seconds", 1761000000],
    ["Unix milliseconds", 1761000000000],
    ["ISO string", ISO],
    ["Unix seconds as a string", "1761000000"],
    ["Unix milliseconds as a string", "1761000000000"],
  ])("reads %s", (_form, raw) => {
    const { date, warning } = parseTimestamp("lastUpdated", raw);
    expect(date?.toISOString()).toBe(ISO);
    expect(warning).toBeNull();
  });

  it("reads an ISO date-time without zone as UTC, with a warning", () => {
    const { date, warning } = parseTimestamp("lastUpdated", "2025-10-20 22:40:00");
    expect(date?.toISOString()).toBe(ISO);
    expect(warning).toBe("lastUpdated has no time zone, read as UTC: 2025-10-20 22:40:00");
  });

  it("treats a missing value as unknown without a warning", () => {
    expect(parseTimestamp("lastUpdated", undefined)).toEqual({ date: null, warning: null });
    expect(parseTimestamp("lastUpdated", null)).toEqual({ date: null, warning: null });
  });

  it.each([
    ["a zero placeholder", 0],
    ["unparseable text", "yesterday-ish"],
  ])("rejects %s with a warning", (_case, raw) => {
    const { date, warning } = parseTimestamp("lastCalledAt", raw);
    expect(date).toBeNull();
    expect(warning).toBe(`lastCalledAt is not a plausible timestamp: ${raw}`);
  });

  it("rejects a value that is neither number nor string", () => {
    expect(parseTimestamp("lastUpdated", { seconds: 1 })).toEqual({
      date: null,
      warning: "lastUpdated is neither a number nor a string",
    });
  });
});
