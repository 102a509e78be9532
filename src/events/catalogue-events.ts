import type { Prisma } from "../generated/prisma/client";
import type { NewEvent } from "./emit";

/**
 * Catalogue changes as events: what a batch write looked like before and after, compared in
 * the write's own transaction. Only real differences become events, so a re-crawl that finds
 * everything as it was emits nothing.
 */

/** What an endpoint costs as its source lists it: the fields a price change is judged on. */
export interface ListedPrice {
  scheme: string | null;
  network: string | null;
  asset: string | null;
  asset_symbol: string | null;
  amount_atomic: string | null;
  price_usdc: string | null;
  pay_to: string | null;
}

interface EndpointState {
  id: string;
  method: string;
  url: string;
  /** The source's listing options for it, in the source's order ([]: it lists none). */
  prices: ListedPrice[];
}

export interface ServiceState {
  id: string;
  detailUrl: string;
  name: string;
  domain: string | null;
  description: string | null;
  category: string | null;
  status: "listed" | "delisted";
  source: string;
  endpoints: EndpointState[];
}

/** The fields whose change is a service.updated, by API name. */
const TRACKED = ["name", "domain", "description", "category"] as const;

/**
 * The services of a source at these detail URLs, with their endpoints and the payment options
 * this source lists for them, as this transaction sees them. Numbers are read as text so amounts
 * stay exact.
 */
export async function serviceStates(
  tx: Prisma.TransactionClient,
  sourceId: string,
  detailUrls: readonly string[],
): Promise<Map<string, ServiceState>> {
  const rows = await tx.$queryRaw<(Omit<ServiceState, "detailUrl"> & { detail_url: string })[]>`
    SELECT s.id::text, s.detail_url, s.name, s.domain, s.description, s.category, s.status::text AS status,
           src.kind::text AS source,
           COALESCE(json_agg(json_build_object('id', e.id, 'method', e.method, 'url', e.url, 'prices', p.prices)
                             ORDER BY e.position)
                    FILTER (WHERE e.id IS NOT NULL), '[]') AS endpoints
    FROM services s
    JOIN sources src ON src.id = s.source_id
    LEFT JOIN endpoints e ON e.service_id = s.id
    LEFT JOIN LATERAL (
      SELECT COALESCE(json_agg(json_build_object(
               'scheme', po.scheme, 'network', po.network, 'asset', po.asset, 'asset_symbol', po.asset_symbol,
               'amount_atomic', po.amount_atomic::text, 'price_usdc', trim_scale(po.price_usdc)::text,
               'pay_to', po.pay_to) ORDER BY po.position), '[]') AS prices
      FROM payment_options po
      WHERE po.endpoint_id = e.id AND po.origin = 'listing' AND po.source_id = s.source_id
    ) p ON true
    WHERE s.source_id = ${sourceId}::uuid AND s.detail_url = ANY(${detailUrls as string[]}::text[])
    GROUP BY s.id, src.kind`;
  return new Map(rows.map(({ detail_url, ...row }) => [detail_url, { ...row, detailUrl: detail_url }]));
}

export function serviceRef(state: Pick<ServiceState, "id" | "name" | "source" | "detailUrl">) {
  return { id: state.id, name: state.name, source: state.source, detail_url: state.detailUrl };
}

const endpointKey = (endpoint: EndpointState) => `${endpoint.method} ${endpoint.url}`;

const endpointRef = ({ id, method, url }: EndpointState) => ({ id, method, url });

/**
 * Whether two listings of an endpoint's options ask for the same payments: the same set of
 * (scheme, network, asset, amount, payTo), whatever their order (feeds reorder between walks).
 * asset_symbol and price_usdc follow from network, asset and amount.
 */
export function samePrices(a: readonly ListedPrice[], b: readonly ListedPrice[]): boolean {
  const keys = (prices: readonly ListedPrice[]) =>
    prices
      .map((p) => JSON.stringify([p.scheme, p.network, p.asset, p.amount_atomic, p.pay_to]))
      .sort()
      .join("\n");
  return keys(a) === keys(b);
}

/** The events between two states of the same services (before: as they were; after: as written). */
export function catalogueChangeEvents(
  before: ReadonlyMap<string, ServiceState>,
  after: ReadonlyMap<string, ServiceState>,
): NewEvent[] {
  const events: NewEvent[] = [];
  for (const [detailUrl, now] of after) {
    const was = before.get(detailUrl);
    const service = serviceRef(now);
    const serviceId = now.id;
    if (!was) {
      events.push({ type: "service.listed", serviceId, data: { service } });
    } else {
      if (was.status === "delisted" && now.status === "listed") {
        events.push({ type: "service.relisted", serviceId, data: { service } });
      }
      const changes = TRACKED.filter((field) => was[field] !== now[field]).map((field) => ({
        field,
        old: was[field],
        new: now[field],
      }));
      if (changes.length > 0) events.push({ type: "service.updated", serviceId, data: { service, changes } });
    }
    const previous = new Map((was?.endpoints ?? []).map((endpoint) => [endpointKey(endpoint), endpoint]));
    const current = new Set(now.endpoints.map(endpointKey));
    for (const endpoint of now.endpoints) {
      const old = previous.get(endpointKey(endpoint));
      const data = { service_id: serviceId, endpoint: endpointRef(endpoint) };
      if (!old) {
        events.push({ type: "endpoint.added", serviceId, data });
      } else if (!samePrices(old.prices, endpoint.prices)) {
        events.push({
          type: "endpoint.price_changed",
          serviceId,
          data: { ...data, old_prices: old.prices, new_prices: endpoint.prices },
        });
      }
    }
    for (const endpoint of was?.endpoints ?? []) {
      if (!current.has(endpointKey(endpoint))) {
        events.push({
          type: "endpoint.removed",
          serviceId,
          data: { service_id: serviceId, endpoint: endpointRef(endpoint) },
        });
      }
    }
  }
  return events;
}
