import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { type EndpointPayability, judgeEndpoint } from "../payability/endpoint-verdict";
import { type CallDescription, chooseCall, type PublishedCall } from "../payments/call-description";
import { driftOf, type EndpointDrift, latestDriftJson } from "./probe-stats";
import { allPaymentOptions, type PaymentOptionRecord } from "./service-details";
import { shownId } from "./service-queries";

export const ENDPOINT_SORTS = ["relevance", "price"] as const;
export type EndpointSort = (typeof ENDPOINT_SORTS)[number];

export interface EndpointHit {
  /** The catalogue entry's id (its primary row's), whichever row of the entry lists the endpoint. */
  serviceId: string;
  serviceName: string;
  domain: string | null;
  method: string;
  url: string;
  description: string | null;
  lastVerifiedAt: Date | null;
  paymentOptions: PaymentOptionRecord[];
  lastProbe: { at: Date; statusCode: number | null; outcome: string; error: string | null } | null;
  drift: EndpointDrift | null;
  payability: EndpointPayability;
  call: PublishedCall | null;
}

export interface ListedEndpoint extends EndpointHit {
  id: string;
  /** Its place in id order among the endpoints read with it (see listedEndpointsQuery). */
  idPlace: number;
  /** The service's category. */
  category: string | null;
  /** The endpoint_search document as tsvector text; null until the document is built. */
  document: string | null;
}

/** Columns read to derive the hit's payability and call description. */
interface VerdictColumns {
  lastProbeStatus: number | null;
  listingCall: CallDescription | null;
  liveCall: CallDescription | null;
}

/** A listed endpoint's row as its query returns it, before its options are joined. */
export type ListedEndpointRow = Omit<ListedEndpoint, "paymentOptions" | "drift" | "payability" | "call"> &
  VerdictColumns & { drift: Parameters<typeof driftOf>[0]; idPlace: number };

/**
 * Every endpoint of a listed service row (a delisted service cannot be called), in the endpoint
 * search's default order: the busiest services' endpoints first (the services list's default),
 * each service's in page order, ties by id so paging is stable. `idPlace` is the endpoint's place
 * in id order among the rows read.
 */
export function listedEndpointsQuery(
  /** Only these endpoints (an in-place refresh); every listed one when absent. */
  ids?: readonly string[],
): Prisma.Sql {
  return Prisma.sql`
      SELECT e.id::text, ${shownId("s")}::text AS "serviceId", s.name AS "serviceName",
        s.domain, e.method, e.url, e.description, e.last_verified_at AS "lastVerifiedAt", s.category,
        e.last_probe_status AS "lastProbeStatus", e.call_description AS "listingCall",
        e.probe_call_description AS "liveCall",
        d.document::text AS document,
        CASE WHEN lp.probed_at IS NOT NULL THEN json_build_object('at', lp.probed_at, 'statusCode', lp.status_code,
          'outcome', lp.outcome, 'error', lp.error) END AS "lastProbe",
        ${latestDriftJson("e", Prisma.sql`now()`)} AS drift,
        (row_number() OVER (ORDER BY e.id) - 1)::int AS "idPlace"
      FROM endpoints e
      JOIN services s ON s.id = e.service_id
      LEFT JOIN endpoint_search d ON d.endpoint_id = e.id
      LEFT JOIN LATERAL (SELECT p.probed_at, p.status_code, p.outcome, p.error FROM endpoint_probes p
        WHERE p.endpoint_id = e.id ORDER BY p.probed_at DESC LIMIT 1) lp ON TRUE
      WHERE s.status = 'listed' ${ids === undefined ? Prisma.empty : Prisma.sql`AND e.id = ANY(${ids}::uuid[])`}
      ORDER BY s.volume_usdc_30d DESC NULLS LAST, coalesce(s.canonical_id, s.id), e.position, e.id`;
}

/** Rows of listedEndpointsQuery with their payment options, payability and call description. */
export async function withPaymentOptions(
  db: Queryable,
  rows: readonly ListedEndpointRow[],
): Promise<ListedEndpoint[]> {
  const options = await allPaymentOptions(
    db,
    rows.map((row) => row.id),
  );
  return rows.map(({ lastProbeStatus, listingCall, liveCall, ...row }) => {
    const paymentOptions = options.get(row.id) ?? [];
    return {
      ...row,
      lastProbe: row.lastProbe && { ...row.lastProbe, at: new Date(row.lastProbe.at) },
      drift: driftOf(row.drift),
      paymentOptions,
      payability: judgeEndpoint(paymentOptions, lastProbeStatus),
      call: chooseCall(listingCall, liveCall),
    };
  });
}

/** These listed endpoints (see listedEndpointsQuery), in the default order. */
export async function listedEndpoints(db: Queryable, ids: readonly string[]): Promise<ListedEndpoint[]> {
  return withPaymentOptions(db, await queryRows<ListedEndpointRow>(db, listedEndpointsQuery(ids)));
}
