import { type Queryable, queryRows, type ReadPool } from "../db/read-pool";
import { Prisma } from "../generated/prisma/client";
import { isEntryMember } from "./catalogue-entries";
import { endpointProbeStats, type ProbeSummary, serviceProbeStats } from "./probe-stats";
import { getService, type ServiceRecord } from "./service-queries";
import { decimalText } from "./sql";

/**
 * The detail of one catalogue entry: the endpoints of all its rows with their payment options and
 * probe statistics, the entry's own probe statistics, and which source listed it when. Each part
 * is one set-based query over the ids of the entry (never one query per endpoint).
 */

export interface PaymentOptionRecord {
  origin: "listing" | "probe";
  /** The base URL of the source that claimed it; null for what a probe saw. */
  sourceUrl: string | null;
  scheme: string | null;
  network: string | null;
  networkName: string | null;
  asset: string | null;
  assetSymbol: string | null;
  amountAtomic: string | null;
  priceUsdc: string | null;
  payTo: string | null;
  maxTimeoutSeconds: number | null;
  warnings: string[];
  observedAt: Date;
}

export interface EndpointDetail {
  method: string;
  url: string;
  description: string | null;
  paymentOptions: PaymentOptionRecord[];
  probe: ProbeSummary | null;
}

export interface SourceListing {
  kind: "html_directory" | "bazaar";
  sourceUrl: string;
  listingUrl: string;
  status: "listed" | "delisted";
  firstSeenAt: Date;
  lastSeenAt: Date;
}

export interface ServiceDetail {
  service: ServiceRecord;
  endpoints: EndpointDetail[];
  sources: SourceListing[];
  probe: ProbeSummary | null;
}

interface EndpointRow {
  id: string;
  method: string;
  url: string;
  description: string | null;
}

/** Endpoints of every row of the entries, the primary's first, each row's in page order. */
function entryEndpoints(pool: ReadPool, entryIds: string[]): Promise<EndpointRow[]> {
  return queryRows<EndpointRow>(
    pool,
    Prisma.sql`
      SELECT e.id, e.method, e.url, e.description
      FROM services s
      JOIN services m ON ${isEntryMember("m", "s")}
      JOIN endpoints e ON e.service_id = m.id
      WHERE s.id = ANY(${entryIds}::uuid[])
      ORDER BY s.id, (m.id = s.id) DESC, m.first_seen_at, m.id, e.position, e.id`,
    { prepared: true },
  );
}

/** Payment options of these endpoints (or of every endpoint: null) by endpoint id, listings first, in their stored order. */
export async function paymentOptionsOf(
  pool: Queryable,
  endpointIds: string[] | null,
): Promise<Map<string, PaymentOptionRecord[]>> {
  const rows = await queryRows<PaymentOptionRecord & { endpointId: string }>(
    pool,
    Prisma.sql`
      SELECT po.endpoint_id AS "endpointId", po.origin::text AS origin, src.base_url AS "sourceUrl",
        po.scheme, po.network, po.network_name AS "networkName", po.asset, po.asset_symbol AS "assetSymbol",
        po.amount_atomic::text AS "amountAtomic", ${decimalText(Prisma.sql`po.price_usdc`)} AS "priceUsdc",
        po.pay_to AS "payTo", po.max_timeout_seconds AS "maxTimeoutSeconds", po.warnings,
        po.observed_at AS "observedAt"
      FROM payment_options po LEFT JOIN sources src ON src.id = po.source_id
      WHERE ${endpointIds === null ? Prisma.sql`TRUE` : Prisma.sql`po.endpoint_id = ANY(${endpointIds}::uuid[])`}
      ORDER BY po.endpoint_id, po.origin, po.position, po.id`,
    { prepared: true },
  );
  const byEndpoint = new Map<string, PaymentOptionRecord[]>();
  for (const { endpointId, ...option } of rows) {
    const options = byEndpoint.get(endpointId);
    if (options) options.push(option);
    else byEndpoint.set(endpointId, [option]);
  }
  return byEndpoint;
}

/** Every row of the entry as its source lists it: provenance of what the entry shows. */
function entrySources(pool: ReadPool, entryId: string): Promise<SourceListing[]> {
  return queryRows<SourceListing>(
    pool,
    Prisma.sql`
      SELECT src.kind::text AS kind, src.base_url AS "sourceUrl", m.detail_url AS "listingUrl",
        m.status::text AS status, m.first_seen_at AS "firstSeenAt", m.last_seen_at AS "lastSeenAt"
      FROM services s
      JOIN services m ON ${isEntryMember("m", "s")}
      JOIN sources src ON src.id = m.source_id
      WHERE s.id = ${entryId}::uuid
      ORDER BY (m.id = s.id) DESC, m.first_seen_at, m.id`,
    { prepared: true },
  );
}

/**
 * The same endpoint (method and URL) listed by two sources is shown once, under the first row's
 * description and probe, with the payment options of both (each option names its source).
 */
function mergeEndpoints(
  rows: EndpointRow[],
  options: Map<string, PaymentOptionRecord[]>,
  probes: Map<string, ProbeSummary>,
): EndpointDetail[] {
  const byKey = new Map<string, EndpointDetail>();
  for (const row of rows) {
    const key = `${row.method} ${row.url}`;
    const found = byKey.get(key);
    const rowOptions = options.get(row.id) ?? [];
    if (found) {
      found.paymentOptions.push(...rowOptions);
      found.description ??= row.description;
      found.probe ??= probes.get(row.id) ?? null;
    } else {
      const { method, url, description } = row;
      byKey.set(key, {
        method,
        url,
        description,
        paymentOptions: [...rowOptions],
        probe: probes.get(row.id) ?? null,
      });
    }
  }
  return [...byKey.values()];
}

/**
 * The entry that `id` belongs to: the id of any of its rows answers the whole entry under its
 * primary's id (so links to a Bazaar row keep working after a merge); null when no row has it.
 */
export async function getServiceDetail(pool: ReadPool, id: string): Promise<ServiceDetail | null> {
  const service = await getService(pool, id);
  if (!service) return null;
  const rows = await entryEndpoints(pool, [service.id]);
  const endpointIds = rows.map((row) => row.id);
  const [options, endpointProbes, serviceProbes, sources] = await Promise.all([
    paymentOptionsOf(pool, endpointIds),
    endpointProbeStats(pool, endpointIds),
    serviceProbeStats(pool, [service.id]),
    entrySources(pool, service.id),
  ]);
  return {
    service,
    endpoints: mergeEndpoints(rows, options, endpointProbes),
    sources,
    probe: serviceProbes.get(service.id) ?? null,
  };
}
