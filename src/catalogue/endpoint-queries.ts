import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { type EndpointPayability, judgeEndpoint } from "../payability/endpoint-verdict";
import { type CallDescription, chooseCall, type PublishedCall } from "../payments/call-description";
import { driftOf, type EndpointDrift, latestDriftJson } from "./probe-stats";
import {
  allPaymentOptions,
  OPTION_ORDER,
  PAYMENT_OPTION_COLUMNS,
  type PaymentOptionRecord,
} from "./service-details";
import { shownId } from "./service-queries";
import { type ListedTrust, listedTrustColumns } from "./trust-queries";

export interface EndpointHit extends ListedTrust {
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
  /** The service's category. */
  category: string | null;
}

/** Columns read to derive the hit's payability and call description. */
interface VerdictColumns {
  lastProbeStatus: number | null;
  listingCall: CallDescription | null;
  liveCall: CallDescription | null;
}

/** A listed endpoint's row as its query returns it, before its options are joined. */
export type ListedEndpointRow = Omit<ListedEndpoint, "paymentOptions" | "drift" | "payability" | "call"> &
  VerdictColumns & { drift: Parameters<typeof driftOf>[0] };

/** Endpoints of listed service rows (a delisted service cannot be called). */
const LISTED_ENDPOINTS = Prisma.sql`endpoints e JOIN services s ON s.id = e.service_id`;
const IS_LISTED = Prisma.sql`s.status = 'listed'`;

/**
 * The endpoint search's default order: the busiest services' endpoints first (the services
 * list's default), each service's in page order, ties by id so paging is stable.
 */
const DEFAULT_ENDPOINT_ORDER = Prisma.sql`s.volume_usdc_30d DESC NULLS LAST, coalesce(s.canonical_id, s.id), e.position, e.id`;

/** These listed endpoints as the API shows them, in the default order. */
function listedEndpointsQuery(ids: readonly string[]): Prisma.Sql {
  return Prisma.sql`
      SELECT e.id::text, ${shownId("s")}::text AS "serviceId", s.name AS "serviceName",
        s.domain, e.method, e.url, e.description, e.last_verified_at AS "lastVerifiedAt", s.category,
        e.last_probe_status AS "lastProbeStatus", e.call_description AS "listingCall",
        e.probe_call_description AS "liveCall", ${listedTrustColumns("e")},
        CASE WHEN lp.probed_at IS NOT NULL THEN json_build_object('at', lp.probed_at, 'statusCode', lp.status_code,
          'outcome', lp.outcome, 'error', lp.error) END AS "lastProbe",
        ${latestDriftJson("e", Prisma.sql`now()`)} AS drift
      FROM ${LISTED_ENDPOINTS}
      LEFT JOIN LATERAL (SELECT p.probed_at, p.status_code, p.outcome, p.error FROM endpoint_probes p
        WHERE p.endpoint_id = e.id ORDER BY p.probed_at DESC LIMIT 1) lp ON TRUE
      WHERE ${IS_LISTED} AND e.id = ANY(${ids}::uuid[])
      ORDER BY ${DEFAULT_ENDPOINT_ORDER}`;
}

/** What the in-memory endpoints list reads of a listed endpoint (see endpointIndexQuery). */
export interface IndexedEndpointRow extends ListedTrust {
  id: string;
  /** The catalogue entry's id. */
  serviceId: string;
  method: string;
  /** The service's category. */
  category: string | null;
  lastVerifiedAt: Date | null;
  lastProbeStatus: number | null;
  /** Its latest live challenge differed from its listing. */
  drift: boolean;
  /** Its listing or its live challenge describes how to call it (see chooseCall). */
  callable: boolean;
  /** Its place in id order among every listed endpoint. */
  idPlace: number;
  /** What the chain shows its pay_tos received over 30 days (src/activity), exact text; null when no chain reads them. */
  observedVolume: string | null;
  adjustedVolume: string | null;
  observedUniquePayers: number | null;
}

/** An endpoint's observed 30-day figures (endpoint_activity `ea`), as the index reads them. */
const observed = (path: string) => Prisma.sql`(ea.observed #>> ${Prisma.raw(`'{${path}}'`)})`;

/**
 * Every listed endpoint in the default order, with only what the in-memory endpoints list holds
 * (read through a cursor when the catalogue loads: half a million rows at 100,000 services, so
 * nothing the items alone show). Ids are uuids, whose order is their text's. Their search
 * documents come from endpointDocumentsQuery, in the same order.
 */
export function endpointIndexQuery(): Prisma.Sql {
  return Prisma.sql`
      SELECT e.id::text, ${shownId("s")}::text AS "serviceId", e.method, s.category,
        e.last_verified_at AS "lastVerifiedAt", e.last_probe_status AS "lastProbeStatus",
        ${latestDriftJson("e", Prisma.sql`now()`)} IS NOT NULL AS drift,
        (e.call_description IS NOT NULL OR e.probe_call_description IS NOT NULL) AS callable,
        ${listedTrustColumns("e")},
        (row_number() OVER (ORDER BY e.id) - 1)::int AS "idPlace",
        ${observed("raw,30d,volume_usdc")} AS "observedVolume", ${observed("adjusted,30d,volume_usdc")} AS "adjustedVolume",
        ${observed("raw,30d,unique_payers")}::int AS "observedUniquePayers"
      FROM ${LISTED_ENDPOINTS}
      LEFT JOIN endpoint_activity ea ON ea.endpoint_id = e.id
      WHERE ${IS_LISTED}
      ORDER BY ${DEFAULT_ENDPOINT_ORDER}`;
}

/** How many rows endpointIndexQuery reads. */
export function listedEndpointCountQuery(): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS count FROM ${LISTED_ENDPOINTS} WHERE ${IS_LISTED}`;
}

/** The endpoint_search documents (tsvector text; null until built) of endpointIndexQuery's rows, in its order. */
export function endpointDocumentsQuery(): Prisma.Sql {
  return Prisma.sql`
      SELECT d.document::text AS document
      FROM ${LISTED_ENDPOINTS}
      LEFT JOIN endpoint_search d ON d.endpoint_id = e.id
      WHERE ${IS_LISTED}
      ORDER BY ${DEFAULT_ENDPOINT_ORDER}`;
}

/** A payment option of indexedPaymentOptionsQuery, with its endpoint's id. */
export type IndexedPaymentOption = PaymentOptionRecord & { endpointId: string };

/**
 * The payment options of endpointIndexQuery's endpoints in the same order of endpoints (each
 * endpoint's in their stored order), so that a load reads them in step with the index: one
 * query and cursor rather than one query per batch of endpoints.
 */
export function indexedPaymentOptionsQuery(): Prisma.Sql {
  return Prisma.sql`
      SELECT po.endpoint_id::text AS "endpointId", ${PAYMENT_OPTION_COLUMNS}
      FROM ${LISTED_ENDPOINTS} JOIN payment_options po ON po.endpoint_id = e.id
      LEFT JOIN sources src ON src.id = po.source_id
      WHERE ${IS_LISTED}
      ORDER BY ${DEFAULT_ENDPOINT_ORDER}, ${OPTION_ORDER}`;
}

/** Index rows with their payment options (by endpoint id) and payability verdict. */
export function withVerdicts(
  rows: readonly IndexedEndpointRow[],
  options: ReadonlyMap<string, PaymentOptionRecord[]>,
): Array<IndexedEndpointRow & { paymentOptions: PaymentOptionRecord[]; payability: EndpointPayability }> {
  return rows.map((row) => {
    const paymentOptions = options.get(row.id) ?? [];
    return { ...row, paymentOptions, payability: judgeEndpoint(paymentOptions, row.lastProbeStatus) };
  });
}

/** Rows of listedEndpointsQuery with their payment options, payability and call description. */
async function withPaymentOptions(
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

/** These listed endpoints as the API shows them, in the default order (the items of a page, a probe's refresh). */
export async function listedEndpoints(db: Queryable, ids: readonly string[]): Promise<ListedEndpoint[]> {
  return withPaymentOptions(db, await queryRows<ListedEndpointRow>(db, listedEndpointsQuery(ids)));
}
