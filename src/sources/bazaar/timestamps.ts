/**
 * The feed's timestamps come as Unix seconds, Unix milliseconds or ISO strings depending on the
 * facilitator (and the era of the entry), so the form is detected per value.
 */

// Below this a number is seconds (1e11 s is the year 5138); at or above it, milliseconds
// (1e11 ms is March 1973, earlier than any x402 timestamp).
const MILLISECONDS_FROM = 1e11;
// Plausibility window: anything outside is a unit mix-up or a placeholder such as 0.
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);
// ISO date-time without a zone: JavaScript would read it as local time, which depends on the host.
const ISO_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
// An ISO date alone is UTC by the ECMAScript rules, whatever the host's zone.
const ISO_DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// A zone after the time (Z, +02:00, +0000) or named (GMT, UTC), as ISO 8601 and HTTP dates carry.
const HAS_ZONE = /\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})\b|\b(GMT|UTC|UT)\b/i;

export interface TimestampReading {
  date: Date | null;
  warning: string | null;
}

function fromEpoch(value: number): number {
  return Math.abs(value) >= MILLISECONDS_FROM ? value : value * 1000;
}

export function parseTimestamp(field: string, raw: unknown): TimestampReading {
  if (raw === undefined || raw === null || raw === "") return { date: null, warning: null };
  let millis: number;
  let note: string | null = null;
  if (typeof raw === "number") {
    millis = fromEpoch(raw);
  } else if (typeof raw === "string" && /^\d+(\.\d+)?$/.test(raw.trim())) {
    millis = fromEpoch(Number(raw));
  } else if (typeof raw === "string") {
    const text = raw.trim();
    if (ISO_WITHOUT_ZONE.test(text)) {
      millis = Date.parse(`${text.replace(" ", "T")}Z`);
      note = `${field} has no time zone, read as UTC: ${text}`;
    } else {
      millis = Date.parse(text);
      // Any other form without a zone ("Oct 20, 2025 22:40") is read by Date.parse in the host's
      // zone, so the same feed would give different instants on different machines.
      if (Number.isFinite(millis) && !ISO_DATE_ONLY.test(text) && !HAS_ZONE.test(text)) {
        return { date: null, warning: `${field} has no time zone and is not ISO 8601: ${text}` };
      }
    }
  } else {
    return { date: null, warning: `${field} is neither a number nor a string` };
  }
  if (!Number.isFinite(millis) || millis < EARLIEST || millis >= LATEST) {
    return { date: null, warning: `${field} is not a plausible timestamp: ${String(raw)}` };
  }
  return { date: new Date(millis), warning: note };
}
