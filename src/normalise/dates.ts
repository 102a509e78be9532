import { invalid, missing, ok } from "./parsed";
import { collapseWhitespace, isMissing } from "./text";
import type { Parsed } from "./types";

export interface ParseDateOptions {
  /**
   * Reference time for relative text ("3 hours ago"). Without it relative text is invalid: the
   * parser stays pure and the caller decides which clock a page was read at.
   */
  now?: Date;
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

const WEEKDAYS: Readonly<Record<string, number>> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
};

/** A calendar date as written, plus whatever follows it (a time of day, or nothing). */
interface DatePart {
  year: number;
  month: number;
  day: number;
  weekday: string | undefined;
  rest: string;
}

type Groups = Record<string, string | undefined>;

/** Optional leading weekday: "Fri, 20 Nov 2026", "Friday Nov 20, 2026". */
const WEEKDAY = String.raw`(?:(?<weekday>[a-z]+)\.?,?\s+)?`;
const ORDINAL = "(?:st|nd|rd|th)?";

/**
 * Accepted calendar layouts. Year-first numeric dates are unambiguous (ISO order); dates with a
 * month name are unambiguous in either order. All-numeric day/month orders are NOT here on purpose.
 */
const DATE_LAYOUTS: readonly RegExp[] = [
  /^(?<year>[1-9]\d{3})(?<sep>[-/.])(?<month>\d{1,2})\k<sep>(?<day>\d{1,2})(?<rest>.*)$/,
  new RegExp(
    `^${WEEKDAY}(?<monthName>[a-z]+)\\.?\\s+(?<day>\\d{1,2})${ORDINAL},?\\s+(?<year>[1-9]\\d{3})(?<rest>.*)$`,
    "i",
  ),
  new RegExp(
    `^${WEEKDAY}(?<day>\\d{1,2})${ORDINAL}(?:\\s+of\\s+|[\\s-])(?<monthName>[a-z]+)\\.?,?[\\s-](?<year>[1-9]\\d{3})(?<rest>.*)$`,
    "i",
  ),
];

/** "11/10/2026", "20.11.26": day and month cannot be told apart, so no guess is made. */
const AMBIGUOUS_NUMERIC = /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b/;

function matchDatePart(text: string): DatePart | null {
  for (const layout of DATE_LAYOUTS) {
    const groups: Groups | undefined = layout.exec(text)?.groups;
    if (groups === undefined) continue;
    const month =
      groups.month !== undefined ? Number(groups.month) : MONTHS[groups.monthName?.toLowerCase() ?? ""];
    if (month === undefined) continue;
    return {
      year: Number(groups.year),
      month,
      day: Number(groups.day),
      weekday: groups.weekday,
      rest: groups.rest ?? "",
    };
  }
  return null;
}

/** Days in a month of the proleptic Gregorian calendar, leap years included. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function checkCalendar(date: DatePart): string | null {
  if (date.month < 1 || date.month > 12) return "month out of range";
  if (date.day < 1 || date.day > daysInMonth(date.year, date.month)) return "day out of range for the month";
  if (date.weekday === undefined) return null;
  const weekday = WEEKDAYS[date.weekday.toLowerCase()];
  if (weekday === undefined) return `"${date.weekday}" is not a weekday`;
  const actual = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return actual === weekday ? null : "weekday does not match the date";
}

// ---------------------------------------------------------------------------------------------
// Time of day

/** Milliseconds since midnight UTC of the written date: time minus the zone offset. */
type TimeResult = { offsetMs: number } | { reason: string };

/** "T14:03Z", " 14:03:05 UTC", ", 2:03 pm GMT", " at 14:03 +01:00". A separator is required. */
const TIME =
  /^(?:T|,?\s+(?:at\s+)?|,)(?<hour>\d{1,2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?)?\s*(?<meridiem>am|pm)?\s*(?<zone>.*)$/i;

const UTC_ZONE = /^(?:Z|UTC|GMT)$/i;
const OFFSET_ZONE = /^(?:UTC|GMT)?\s*(?<sign>[-+])(?<hours>\d{1,2})(?::?(?<minutes>\d{2}))?$/i;

/**
 * Offset of a zone in minutes east of UTC. Abbreviations like "EST", "CET" or "IST" are rejected:
 * several of them mean different offsets in different countries.
 */
function zoneOffsetMinutes(zone: string): number | string {
  if (zone === "") return "a time without a time zone is ambiguous";
  if (UTC_ZONE.test(zone)) return 0;
  const groups: Groups | undefined = OFFSET_ZONE.exec(zone)?.groups;
  if (groups === undefined) return `unsupported time zone "${zone}"`;
  const hours = Number(groups.hours);
  const minutes = Number(groups.minutes ?? "0");
  if (hours > 14 || minutes > 59) return `time zone offset "${zone}" out of range`;
  return (groups.sign === "-" ? -1 : 1) * (hours * 60 + minutes);
}

function hour24(hourText: string, meridiem: string | undefined): number | null {
  const hour = Number(hourText);
  if (meridiem === undefined) return hour <= 23 ? hour : null;
  if (hour < 1 || hour > 12) return null;
  return (hour % 12) + (meridiem.toLowerCase() === "pm" ? 12 : 0);
}

function parseTime(rest: string): TimeResult {
  const groups: Groups | undefined = TIME.exec(rest)?.groups;
  if (groups === undefined) return { reason: `unexpected text after the date: "${rest.trim()}"` };
  const hour = hour24(groups.hour ?? "", groups.meridiem);
  const minute = Number(groups.minute);
  const second = Number(groups.second ?? "0");
  if (hour === null || minute > 59 || second > 59) return { reason: "time of day out of range" };
  const offset = zoneOffsetMinutes(groups.zone ?? "");
  if (typeof offset === "string") return { reason: offset };
  // JS dates hold milliseconds: finer digits are cut, not rounded, so a time never moves forward.
  const millis = Number((groups.fraction ?? "").padEnd(3, "0").slice(0, 3));
  return { offsetMs: ((hour * 60 + minute - offset) * 60 + second) * 1000 + millis };
}

// ---------------------------------------------------------------------------------------------
// Relative dates

const RELATIVE_UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  wk: 604_800_000,
  wks: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

const RELATIVE = /^(?<amount>\d{1,6}|an?|one)\s*(?<unit>[a-z]+)\s+ago$/i;
const JUST_NOW = /^(?:just now|now|moments? ago)$/i;
/** Months and years differ in length, so "2 months ago" has no single meaning. */
const INEXACT_UNIT = /^(?:mo|mos|months?|y|yr|yrs|years?)$/i;

/** Returns null when the text is not relative at all, so the absolute layouts are tried next. */
function parseRelative(raw: string, text: string, now: Date | undefined): Parsed<Date> | null {
  const groups: Groups | undefined = RELATIVE.exec(text)?.groups;
  if (groups === undefined && !JUST_NOW.test(text)) return null;
  if (now === undefined) return invalid(raw, "a relative date needs a reference time");
  if (groups === undefined) return ok(new Date(now.getTime()));
  const unitText = groups.unit ?? "";
  if (INEXACT_UNIT.test(unitText)) return invalid(raw, `"${unitText}" is not a fixed length of time`);
  const unitMs = RELATIVE_UNIT_MS[unitText.toLowerCase()];
  if (unitMs === undefined) return invalid(raw, `unknown time unit "${unitText}"`);
  const amount = /^\d+$/.test(groups.amount ?? "") ? Number(groups.amount) : 1;
  return ok(new Date(now.getTime() - amount * unitMs));
}

// ---------------------------------------------------------------------------------------------

/**
 * "2026-11-20", "2026/11/20", "Nov 20, 2026", "20 Nov 2026", "November 20, 2026",
 * "2026-11-20T14:03:00Z", "2026-11-20T14:03+01:00", "2026-11-20 14:03 UTC" → a Date in UTC; a date
 * without a time is midnight UTC. A time without a zone, an all-numeric day/month date and
 * relative text without `options.now` are invalid: each would be a guess.
 */
export function parseDate(raw: string | null | undefined, options: ParseDateOptions = {}): Parsed<Date> {
  if (raw == null || isMissing(raw)) return missing();
  const text = (collapseWhitespace(raw) ?? "").replace(/\u2212/g, "-");
  const relative = parseRelative(raw, text, options.now);
  if (relative !== null) return relative;
  if (AMBIGUOUS_NUMERIC.test(text)) return invalid(raw, "numeric date with an ambiguous day/month order");
  const date = matchDatePart(text);
  if (date === null) return invalid(raw, "not a recognised date");
  const calendarProblem = checkCalendar(date);
  if (calendarProblem !== null) return invalid(raw, calendarProblem);
  const time = date.rest === "" ? { offsetMs: 0 } : parseTime(date.rest);
  if ("reason" in time) return invalid(raw, time.reason);
  return ok(new Date(Date.UTC(date.year, date.month - 1, date.day) + time.offsetMs));
}
