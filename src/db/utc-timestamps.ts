import pg from "pg";

const TIMESTAMPTZ_OID = 1184;
/** Postgres's output for timestamptz in a UTC session: "2026-01-02 03:04:05.6+00". */
const UTC_OUTPUT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;
/** Fraction digits by length of the fraction text (".6" → "600"). */
const MILLIS_PADDING = ["000", "00", "0", ""];

/** "2026-01-02 03:04:05.6+00" → "2026-01-02T03:04:05.600Z", as Date.toISOString() writes it. */
export function isoFromUtcOutput(text: string): string {
  // Years beyond 9999, BC, other offsets: rare, take the slow path.
  if (!UTC_OUTPUT.test(text)) return new Date(text).toISOString();
  // Positions are fixed from here: date 0-9, time 11-18, then an optional fraction, then "+00".
  const fraction = text.slice(20, text.length - 3).slice(0, 3); // "" when there is none
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}${MILLIS_PADDING[fraction.length]}Z`;
}

/**
 * Type parsers that turn timestamptz straight into ISO 8601 text, for a session whose TimeZone
 * is UTC (see cursorBatches). Formatting in Postgres (to_char) costs ~4 µs a value and parsing to
 * Date then formatting in JS about as much; a string rewrite costs next to nothing, which matters
 * for exports of millions of values.
 */
export const utcTimestampsAsIso = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMPTZ_OID
      ? isoFromUtcOutput
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
