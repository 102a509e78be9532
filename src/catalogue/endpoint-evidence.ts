import { Prisma } from "../generated/prisma/client";
import type { ProbeSummary } from "./probe-stats";

/**
 * Evidence an agent can weigh against what a feed says about itself: figures the catalogue
 * gathers, not the seller.
 */
export interface EndpointEvidence {
  /** Other domains paid to one of this endpoint's pay_to addresses (exact match); null without pay_to. */
  payToSharedWithOrigins: number | null;
  /** Our latest probe got an HTTP answer below 500; null when never probed (or our guard refused it). */
  answersOurProbes: boolean | null;
  /** When the listing row that lists it was first seen. */
  listedSince: Date;
  listingAgeDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How many other domains share a pay_to with endpoint `e` of row `m` (SQL over the aliases): one
 * real address served 144 hosts, which says more about a listing than its own figures.
 */
export function payToSharedWith(e: string, m: string): Prisma.Sql {
  const [endpoint, row] = [Prisma.raw(e), Prisma.raw(m)];
  const ownPayTo = Prisma.sql`
    SELECT own.pay_to FROM payment_options own WHERE own.endpoint_id = ${endpoint}.id AND own.pay_to IS NOT NULL`;
  return Prisma.sql`(CASE WHEN EXISTS (${ownPayTo}) THEN (
    SELECT count(DISTINCT other.domain)::int
    FROM payment_options shared
    JOIN endpoints oe ON oe.id = shared.endpoint_id
    JOIN services other ON other.id = oe.service_id
    WHERE shared.pay_to IN (${ownPayTo}) AND other.domain IS DISTINCT FROM ${row}.domain) END)`;
}

export function endpointEvidence(
  payToSharedWithOrigins: number | null,
  probe: ProbeSummary,
  listedSince: Date,
  asOf: Date,
): EndpointEvidence {
  const last = probe.lastProbe;
  // A refusal by our own SSRF guard says nothing about the endpoint; a timeout says it did not answer.
  let answersOurProbes: boolean | null = null;
  if (last?.statusCode != null) answersOurProbes = last.statusCode < 500;
  else if (last !== null && last.outcome !== "refused") answersOurProbes = false;
  return {
    payToSharedWithOrigins,
    answersOurProbes,
    listedSince,
    listingAgeDays: Math.max(0, Math.floor((asOf.getTime() - listedSince.getTime()) / DAY_MS)),
  };
}
