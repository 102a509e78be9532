import { type Queryable, queryRows } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { type EndpointPayability, judgeEndpoint } from "../payability/endpoint-verdict";
import { type CallDescription, chooseCall, type PublishedCall } from "../payments/call-description";
import { allPaymentOptions, type PaymentOptionRecord } from "./service-details";

export interface EndpointFilters {
  q?: string;
  /** Upper-case, as methods are stored. */
  method?: string;
  /** The service's category, compared case-insensitively. */
  category?: string;
  /** Only endpoints whose payability verdict is this. */
  payable?: boolean;
}

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
  payability: EndpointPayability;
  call: PublishedCall | null;
}

export interface ListedEndpoint extends EndpointHit {
  id: string;
  /** The service's category. */
  category: string | null;
  /** The endpoint_search document as tsvector text; null until the document is built. */
  document: string | null;
}

/** Columns read to derive the hit's payability and call description. */
interface LastProbe {
  lastProbeStatus: number | null;
  listingCall: CallDescription | null;
  liveCall: CallDescription | null;
}

/**
 * Every endpoint of a listed service row (a delisted service cannot be called), in the endpoint
 * search's default order: the busiest services' endpoints first (the services list's default),
 * each service's in page order, ties by id so paging is stable.
 */
export async function listedEndpoints(db: Queryable): Promise<ListedEndpoint[]> {
  const rows = await queryRows<Omit<ListedEndpoint, "paymentOptions" | "payability" | "call"> & LastProbe>(
    db,
    Prisma.sql`
      SELECT e.id::text, coalesce(s.canonical_id, s.id)::text AS "serviceId", s.name AS "serviceName",
        s.domain, e.method, e.url, e.description, e.last_verified_at AS "lastVerifiedAt", s.category,
        e.last_probe_status AS "lastProbeStatus", e.call_description AS "listingCall",
        e.probe_call_description AS "liveCall",
        d.document::text AS document
      FROM endpoints e
      JOIN services s ON s.id = e.service_id
      LEFT JOIN endpoint_search d ON d.endpoint_id = e.id
      WHERE s.status = 'listed'
      ORDER BY s.volume_usdc_30d DESC NULLS LAST, coalesce(s.canonical_id, s.id), e.position, e.id`,
  );
  const options = await allPaymentOptions(db);
  return rows.map(({ lastProbeStatus, listingCall, liveCall, ...row }) => {
    const paymentOptions = options.get(row.id) ?? [];
    return {
      ...row,
      paymentOptions,
      payability: judgeEndpoint(paymentOptions, lastProbeStatus),
      call: chooseCall(listingCall, liveCall),
    };
  });
}
