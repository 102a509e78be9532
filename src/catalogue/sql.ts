import { Prisma } from "../generated/prisma/client";

/** Conditions joined with AND; no condition at all is TRUE. */
export function whereAll(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length === 0 ? Prisma.sql`TRUE` : Prisma.join(conditions, " AND ");
}

export type SortDirection = "asc" | "desc";

/** ISO 8601 in UTC with milliseconds, formatted by Postgres (for JSON built in SQL). */
export function isoText(column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A USDC volume as exact text with the column's fixed scale of 6 decimals, USDC's own precision
 * ("12300.000000", "1250.500000"): every volume reads alike and sorts alike as text.
 */
export function volumeText(column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${column})::numeric(38, 6)::text`;
}

/** A decimal as its exact text without trailing zeros ("12.5", not "12.500000"). */
export function decimalText(column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`trim_scale(${column})::text`;
}

/**
 * The `count` UTC days ending with the day of `end` (a timestamptz), oldest first, as rows of
 * day (date), starts and ends (timestamptz): a FROM item named `days`.
 */
export function utcDays(end: Prisma.Sql, count: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
    SELECT g.day::date AS day, g.day AT TIME ZONE 'UTC' AS starts,
      (g.day + interval '1 day') AT TIME ZONE 'UTC' AS ends
    FROM generate_series(((${end} AT TIME ZONE 'UTC')::date - (${count} - 1))::timestamp,
      (${end} AT TIME ZONE 'UTC')::date::timestamp, interval '1 day') AS g(day)
  ) days`;
}
