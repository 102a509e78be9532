import { Prisma } from "../generated/prisma/client";

/**
 * A catalogue entry is the set of service rows of one domain (from several sources) that the merge
 * step grouped under a primary row: members have canonical_id = the primary's id, the primary has
 * canonical_id = its own id, and a row the merge has not seen yet (NULL) is an entry of its own.
 * Aliases are written in code, never taken from a request.
 */

/** The entry a row belongs to. Indexed as an expression (services_entry_idx), so keep it verbatim. */
export function entryOf(alias: string): Prisma.Sql {
  const s = Prisma.raw(alias);
  return Prisma.sql`coalesce(${s}.canonical_id, ${s}.id)`;
}

/**
 * The row `alias` is the primary of its entry (or an unmerged row), so it stands for the entry.
 * As a row filter this form gets good row estimates from Postgres (the coalesce form did not).
 */
export function isEntryPrimary(alias: string): Prisma.Sql {
  const s = Prisma.raw(alias);
  return Prisma.sql`(${s}.canonical_id IS NULL OR ${s}.canonical_id = ${s}.id)`;
}

/**
 * The row `member` belongs to the entry whose primary is `entry`: one equality on the indexed
 * expression, so Postgres looks members up by index (an OR of two columns made it scan).
 */
export function isEntryMember(member: string, entry: string): Prisma.Sql {
  return Prisma.sql`${entryOf(member)} = ${Prisma.raw(entry)}.id`;
}

/** Payment options `po` of every endpoint of every row of the entry `entry`, for EXISTS and MIN. */
export function entryPaymentOptions(entry: string): Prisma.Sql {
  return Prisma.sql`
    FROM services pm
    JOIN endpoints pe ON pe.service_id = pm.id
    JOIN payment_options po ON po.endpoint_id = pe.id
    WHERE ${isEntryMember("pm", entry)}`;
}

/** The entry's lowest price per call in USDC (NULL when no option has a price): the `price` sort. */
export function entryMinPrice(entry: string): Prisma.Sql {
  return Prisma.sql`(SELECT min(po.price_usdc) ${entryPaymentOptions(entry)})`;
}
