import { describe, expect, it } from "vitest";
import { parseDate } from "../../../src/normalise/values";

function expectDate(input: string, iso: string, now?: Date): void {
  const parsed = parseDate(input, { now });
  expect(parsed.kind).toBe("value");
  if (parsed.kind === "value") expect(parsed.value.toISOString()).toBe(iso);
}

describe("parseDate", () => {
  it.each([
    ["2026-11-20", "2026-11-20T00:00:00.000Z"],
    ["2026-1-5", "2026-01-05T00:00:00.000Z"],
    ["2026/11/20", "2026-11-20T00:00:00.000Z"],
    ["2026.11.20", "2026-11-20T00:00:00.000Z"],
    ["Nov 20, 2026", "2026-11-20T00:00:00.000Z"],
    ["Nov 20 2026", "2026-11-20T00:00:00.000Z"],
    ["Nov. 20, 2026", "2026-11-20T00:00:00.000Z"],
    ["nov 20, 2026", "2026-11-20T00:00:00.000Z"],
    ["November 20, 2026", "2026-11-20T00:00:00.000Z"],
    ["November 20th, 2026", "2026-11-20T00:00:00.000Z"],
    ["Sept 1, 2026", "2026-09-01T00:00:00.000Z"],
    ["May 3, 2026", "2026-05-03T00:00:00.000Z"],
    ["20 Nov 2026", "2026-11-20T00:00:00.000Z"],
    ["20 November 2026", "2026-11-20T00:00:00.000Z"],
    ["1st March 2026", "2026-03-01T00:00:00.000Z"],
    ["22nd of March, 2026", "2026-03-22T00:00:00.000Z"],
    ["20-Nov-2026", "2026-11-20T00:00:00.000Z"],
    ["Fri, 20 Nov 2026", "2026-11-20T00:00:00.000Z"],
    ["Friday, November 20, 2026", "2026-11-20T00:00:00.000Z"],
    ["Nov\u00A020,\u202F2026", "2026-11-20T00:00:00.000Z"],
    ["  \n2026-11-20\n ", "2026-11-20T00:00:00.000Z"],
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["2026-11-20T14:03:00Z", "2026-11-20T14:03:00.000Z"],
    ["2026-11-20T14:03Z", "2026-11-20T14:03:00.000Z"],
    ["2026-11-20t14:03:00z", "2026-11-20T14:03:00.000Z"],
    ["2026-11-20T14:03:00.123Z", "2026-11-20T14:03:00.123Z"],
    ["2026-11-20T14:03:00.1Z", "2026-11-20T14:03:00.100Z"],
    ["2026-11-20T14:03:00.123999Z", "2026-11-20T14:03:00.123Z"],
    ["2026-11-20T14:03:00+01:00", "2026-11-20T13:03:00.000Z"],
    ["2026-11-20T14:03:00+0100", "2026-11-20T13:03:00.000Z"],
    ["2026-11-20T14:03:00-05:30", "2026-11-20T19:33:00.000Z"],
    ["2026-11-20T14:03:00\u221205:00", "2026-11-20T19:03:00.000Z"],
    ["2026-11-20T00:30:00+02:00", "2026-11-19T22:30:00.000Z"],
    ["2026-11-20 14:03 UTC", "2026-11-20T14:03:00.000Z"],
    ["2026-11-20 14:03:05 GMT", "2026-11-20T14:03:05.000Z"],
    ["2026-11-20 14:03 UTC+2", "2026-11-20T12:03:00.000Z"],
    ["2026-11-20 14:03 GMT+05:30", "2026-11-20T08:33:00.000Z"],
    ["Fri, 20 Nov 2026 14:03:00 GMT", "2026-11-20T14:03:00.000Z"],
    ["Nov 20, 2026, 2:03 PM UTC", "2026-11-20T14:03:00.000Z"],
    ["Nov 20, 2026 at 12:15 am UTC", "2026-11-20T00:15:00.000Z"],
    ["Nov 20, 2026 12:00 pm UTC", "2026-11-20T12:00:00.000Z"],
  ])("when the text is %j, then the date is %s", (input, iso) => {
    expectDate(input, iso);
  });

  it.each([
    ["ambiguous month/day", "11/10/2026"],
    ["ambiguous even when day > 12 (same layout, no guessing)", "25/12/2026"],
    ["ambiguous with dots", "11.10.2026"],
    ["two-digit year", "11/10/26"],
    ["a time without a time zone", "2026-11-20T14:03:00"],
    ["a space-separated time without a zone", "2026-11-20 14:03"],
    ["an ambiguous zone abbreviation", "2026-11-20 14:03 EST"],
    ["an out-of-range offset", "2026-11-20T14:03:00+15:00"],
    ["February 30th", "2026-02-30"],
    ["February 29th in a common year", "2026-02-29"],
    ["month 13", "2026-13-01"],
    ["day 0", "2026-11-00"],
    ["hour 24", "2026-11-20T24:00:00Z"],
    ["minute 60", "2026-11-20T14:60:00Z"],
    ["13 pm", "Nov 20, 2026 13:00 pm UTC"],
    ["mixed separators", "2026-11/20"],
    ["unknown month name", "Foo 20, 2026"],
    ["wrong weekday", "Mon, 20 Nov 2026"],
    ["not a weekday", "Xyz, 20 Nov 2026"],
    ["trailing junk", "2026-11-20 yesterday"],
    ["year glued to more digits", "20 Nov 20261"],
    ["time glued to the date", "2026-11-2014:03Z"],
    ["a unix timestamp", "1763647380"],
    ["a year only", "2026"],
    ["a month and year only", "Nov 2026"],
    ["year zero", "0000-01-01"],
    ["today", "today"],
    ["an emoji", "📅 2026-11-20"],
    ["an undecoded entity", "Nov&nbsp;20, 2026"],
    ["garbage", "12.3.4"],
  ])("when the text is %s, then it is invalid", (_label, input) => {
    expect(parseDate(input)).toMatchObject({ kind: "invalid", raw: input });
  });

  it("when the day/month order is ambiguous, then the reason says so", () => {
    expect(parseDate("11/10/2026")).toMatchObject({ reason: expect.stringContaining("ambiguous") });
  });

  it.each(["", "  ", "—", "-", "N/A", "unknown", "?", null, undefined])(
    "when the text is the placeholder %j, then it is missing",
    (input) => {
      expect(parseDate(input)).toEqual({ kind: "missing" });
    },
  );

  describe("relative text", () => {
    const now = new Date("2026-11-20T14:00:00.000Z");

    it.each([
      ["3 hours ago", "2026-11-20T11:00:00.000Z"],
      ["1 hour ago", "2026-11-20T13:00:00.000Z"],
      ["an hour ago", "2026-11-20T13:00:00.000Z"],
      ["a day ago", "2026-11-19T14:00:00.000Z"],
      ["2 days ago", "2026-11-18T14:00:00.000Z"],
      ["5 minutes ago", "2026-11-20T13:55:00.000Z"],
      ["5 min ago", "2026-11-20T13:55:00.000Z"],
      ["5m ago", "2026-11-20T13:55:00.000Z"],
      ["3h ago", "2026-11-20T11:00:00.000Z"],
      ["30 seconds ago", "2026-11-20T13:59:30.000Z"],
      ["1 week ago", "2026-11-13T14:00:00.000Z"],
      ["3 Hours Ago", "2026-11-20T11:00:00.000Z"],
      ["just now", "2026-11-20T14:00:00.000Z"],
    ])("when the text is %j and now is given, then the date is %s", (input, iso) => {
      expectDate(input, iso, now);
    });

    it.each(["3 hours ago", "just now", "a day ago"])(
      "when the text is %j and no reference time is given, then it is invalid",
      (input) => {
        expect(parseDate(input)).toMatchObject({ kind: "invalid", raw: input });
      },
    );

    it.each(["2 months ago", "1 year ago", "3 fortnights ago"])(
      "when the text is %j, then it is invalid even with a reference time",
      (input) => {
        expect(parseDate(input, { now })).toMatchObject({ kind: "invalid", raw: input });
      },
    );

    it("when now is given, then the caller's Date object is not returned or changed", () => {
      const reference = new Date(now.getTime());
      const parsed = parseDate("just now", { now: reference });
      expect(parsed.kind === "value" && parsed.value).not.toBe(reference);
      expect(reference.toISOString()).toBe("2026-11-20T14:00:00.000Z");
    });

    it("when an absolute date is given with now, then now is ignored", () => {
      expectDate("2026-01-02", "2026-01-02T00:00:00.000Z", now);
    });
  });
});
