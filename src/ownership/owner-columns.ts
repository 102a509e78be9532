import { z } from "zod";
import { Prisma } from "../generated/prisma/client";

/**
 * What a catalogue entry shows of its origin's verified owner: whether some row of the entry has
 * an endpoint at an owned origin (owner_verified), and that owner's report. Endpoints are matched
 * to origins by url_origin (indexed; see the origin_ownership migration).
 */

/** Owners of the origins of every endpoint of every row of the entry of row `alias`. */
function entryOwners(alias: string): Prisma.Sql {
  const s = Prisma.raw(alias);
  return Prisma.sql`
    FROM services om
    JOIN endpoints oe ON oe.service_id = om.id
    JOIN origin_owners o ON o.origin = url_origin(oe.url)
    WHERE coalesce(om.canonical_id, om.id) = coalesce(${s}.canonical_id, ${s}.id)`;
}

/** Whether an origin of the entry of row `alias` has a verified owner. */
export function ownerVerifiedOf(alias: string): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 ${entryOwners(alias)})`;
}

/** "ownerVerified" and "ownerReported" (the report with its reported_at) of the entry of row `alias`. */
export function ownerColumns(alias: string): Prisma.Sql {
  return Prisma.sql`${ownerVerifiedOf(alias)} AS "ownerVerified",
    (SELECT o.reported || jsonb_build_object('reported_at', o.reported_at) ${entryOwners(alias)}
       AND o.reported IS NOT NULL ORDER BY o.origin LIMIT 1) AS "ownerReported"`;
}

/**
 * Whether the entry whose primary row is `alias` is owner-verified, for a read of every entry:
 * the owned entries are found once (by the origins' index), not per entry.
 */
export function ownerVerifiedOfEveryEntry(alias: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(alias)}.id IN (
    SELECT coalesce(om.canonical_id, om.id)
    FROM origin_owners o
    JOIN endpoints oe ON url_origin(oe.url) = o.origin
    JOIN services om ON om.id = oe.service_id)`;
}

/** An owner's report as stored: every field present. */
export const storedReport = z.object({
  description: z.string().nullable(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  icon: z.string().nullable(),
});
export type StoredReport = z.infer<typeof storedReport>;

/** The report as ownerColumns reads it (reported_at as Postgres writes a timestamptz in JSON). */
export type ReportRecord = StoredReport & { reported_at: string };

export function reportJson(report: StoredReport, reportedAt: Date | string) {
  return {
    description: report.description,
    category: report.category,
    tags: report.tags,
    icon: report.icon,
    reported_at: new Date(reportedAt).toISOString(),
  };
}
