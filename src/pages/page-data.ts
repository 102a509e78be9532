import type { z } from "zod";
import { getServiceDaily } from "../catalogue/daily-queries";
import {
  type EcosystemSeries,
  getEcosystemSeries,
  listedObservedVolume,
  type ObservedTotals,
} from "../catalogue/ecosystem-series";
import { getServiceHistory } from "../catalogue/history-queries";
import { getServiceDetail } from "../catalogue/service-details";
import { listCategories } from "../catalogue/taxonomy-queries";
import type { ReadPool } from "../db/read-pool";
import { DEFAULT_DAILY_DAYS } from "../http/schemas/daily";
import type { endpointListQuery } from "../http/schemas/endpoints";
import { isServiceId, type serviceListQuery } from "../http/schemas/services";
import {
  categoryJson,
  dailyJson,
  historyJson,
  serviceDetailJson,
  type serviceJson,
} from "../http/serialisers";
import { NETWORKS } from "../payments/networks";
import {
  type CatalogueSearch,
  endpointFilters,
  type Listing,
  type QueryReading,
  serviceFilters,
} from "../search/catalogue-search";
import { PerSnapshot, snapshotWithin } from "./per-snapshot";

/**
 * What the pages read, through the same seams as the JSON API (the catalogue search, the
 * catalogue's query modules and the API's serialisers), so a page shows exactly what its JSON
 * link answers. Fields other capabilities add to the JSON (trust verdicts, observed volume) are
 * optional here and shown when present.
 */

/** Fields a service may carry beyond the list's: shown when the API serialises them. */
export interface OptionalServiceFields {
  health?: string | null;
  grade?: string | null;
  observed_volume_usdc_30d?: string | null;
  warnings?: string[] | null;
}

export type ServiceItem = ReturnType<typeof serviceJson> & OptionalServiceFields;
export type ServiceView = ReturnType<typeof serviceDetailJson> & OptionalServiceFields;
export type EndpointView = ServiceView["endpoints"][number] & { health?: string | null };
export type HistoryItem = ReturnType<typeof historyJson>;
export type DailyItem = ReturnType<typeof dailyJson>;
export interface ListPage<T> {
  /** The catalogue version the page was read from. */
  snapshot: string;
  items: T[];
  total: number;
  reading: QueryReading | undefined;
}

/** The listing's serialised items as objects (one JSON.parse per item of the page). */
function parsed<T>(listing: Listing): T[] {
  return listing.items.map((parts) => JSON.parse(Buffer.concat(parts).toString("utf8")) as T);
}

export type ServiceQuery = z.output<typeof serviceListQuery>;
export type EndpointQuery = z.output<typeof endpointListQuery>;

export async function findServices(
  search: CatalogueSearch,
  query: ServiceQuery,
): Promise<ListPage<ServiceItem>> {
  const paging = { offset: query.offset, limit: query.limit };
  const { snapshot, listing, reading } = await search.findServices(serviceFilters(query), query, paging);
  return { snapshot, items: parsed<ServiceItem>(listing), total: listing.total, reading };
}

export async function findEndpoints(
  search: CatalogueSearch,
  query: EndpointQuery,
): Promise<ListPage<EndpointHit>> {
  const paging = { offset: query.offset, limit: query.limit };
  const { snapshot, listing, reading } = await search.findEndpoints(
    endpointFilters(query),
    query.sort,
    paging,
  );
  return { snapshot, items: parsed<EndpointHit>(listing), total: listing.total, reading };
}

/** An endpoint search item as the API serialises it. */
export interface EndpointHit {
  service_id: string;
  service_name: string;
  domain: string | null;
  method: string;
  url: string;
  description: string | null;
  payability: EndpointView["payability"];
  verified: boolean;
  last_verified_at: string | null;
  payment_options: EndpointView["payment_options"];
  last_probe: { at: string; status_code: number | null; outcome: string; error: string | null } | null;
}

/** How many listed entries a filter keeps: the `total` of the same search (one item read). */
async function countServices(search: CatalogueSearch, filters: Parameters<typeof serviceFilters>[0]) {
  const page = await search.findServices(serviceFilters(filters), {}, { offset: 0, limit: 1 });
  return page.listing.total;
}

const LISTED = { status: "listed" } as const;

export interface Figures {
  services: number;
  endpoints: number;
  verified: number;
  networks: Array<{ name: string; caip2: string; services: number }>;
  categories: Array<{ category: string; service_count: number }>;
}

/** The ecosystem's figures: totals, live share, networks in use and categories with counts. */
async function ecosystemFigures(pool: ReadPool, search: CatalogueSearch): Promise<Figures> {
  const base = { ...LISTED, offset: 0, limit: 1 } as ServiceQuery;
  const [services, verified, endpoints, categories, networks] = await Promise.all([
    countServices(search, base),
    countServices(search, { ...base, verified: true }),
    search.findEndpoints({}, undefined, { offset: 0, limit: 1 }).then((page) => page.listing.total),
    listCategories(pool, { offset: 0, limit: 200 }),
    Promise.all(
      NETWORKS.map(async (network) => ({
        name: network.name,
        caip2: network.caip2,
        services: await countServices(search, { ...base, network: network.caip2 }),
      })),
    ),
  ]);
  return {
    services,
    endpoints,
    verified,
    networks: networks.filter((n) => n.services > 0).sort((a, b) => b.services - a.services),
    categories: categories.items.map(categoryJson),
  };
}

/** How many days /stats charts. */
export const STATS_DAYS = 30;

/** Price bands (USDC per call) for the distribution on /stats: entries whose lowest price is in each. */
export const PRICE_BANDS = ["0.001", "0.01", "0.1", "1", "10"] as const;

export interface PriceBand {
  /** The band's highest price in USDC; null: above the last band. */
  upTo: string | null;
  services: number;
}

async function priceDistribution(search: CatalogueSearch): Promise<PriceBand[]> {
  const base = { ...LISTED, offset: 0, limit: 1 } as ServiceQuery;
  const atMost = await Promise.all(
    PRICE_BANDS.map((band) => countServices(search, { ...base, max_price: band })),
  );
  const priced = await countServices(search, { ...base, max_price: "1000000000" });
  const bands = PRICE_BANDS.map((band, k) => ({
    upTo: band as string | null,
    services: (atMost[k] ?? 0) - (atMost[k - 1] ?? 0),
  }));
  bands.push({ upTo: null, services: priced - (atMost[atMost.length - 1] ?? 0) });
  return bands;
}

/** The first entries of a sort (newest, busiest) for the home page. */
export function topServices(search: CatalogueSearch, sort: "first_seen" | "volume", limit: number) {
  return findServices(search, { ...LISTED, sort, offset: 0, limit } as ServiceQuery);
}

/**
 * The catalogue-wide figures the pages show, each computed once per catalogue version (a few
 * dozen counts: milliseconds at 10,000 services, too many to repeat on every page view).
 */
export class CatalogueFigures {
  private readonly figures = new PerSnapshot<Figures>();
  private readonly prices = new PerSnapshot<PriceBand[]>();
  private readonly categories = new PerSnapshot<string[]>();
  private readonly daily = new PerSnapshot<EcosystemSeries>();
  private readonly observedTotals = new PerSnapshot<ObservedTotals | null>();

  constructor(
    private readonly pool: ReadPool,
    private readonly search: CatalogueSearch,
  ) {}

  /** The ecosystem per day over STATS_DAYS days: recomputed when the catalogue changes, and hourly for the probes. */
  series(snapshot: string): Promise<EcosystemSeries> {
    return this.daily.get(snapshotWithin(snapshot, 3_600_000), () =>
      getEcosystemSeries(this.pool, STATS_DAYS, PRICE_BANDS),
    );
  }

  /** The observed volume of listed services, at most a minute old (chain activity is read apart from crawls). */
  observed(snapshot: string): Promise<ObservedTotals | null> {
    return this.observedTotals.get(snapshotWithin(snapshot, 60_000), () => listedObservedVolume(this.pool));
  }

  ecosystem(snapshot: string): Promise<Figures> {
    return this.figures.get(snapshot, () => ecosystemFigures(this.pool, this.search));
  }

  priceBands(snapshot: string): Promise<PriceBand[]> {
    return this.prices.get(snapshot, () => priceDistribution(this.search));
  }

  categoryNames(snapshot: string): Promise<string[]> {
    return this.categories.get(snapshot, async () =>
      (await listCategories(this.pool, { offset: 0, limit: 200 })).items.map((c) => c.value),
    );
  }
}

export interface ServicePageData {
  service: ServiceView;
  history: HistoryItem[];
  daily: DailyItem[];
}

/** How many history rows the detail page charts (the first, oldest first). */
export const CHARTED_HISTORY = 200;
/** How many days of daily figures it charts: the daily API's default, so the two agree. */
export const CHARTED_DAYS = DEFAULT_DAILY_DAYS;

/** A service's detail, history and daily figures, or null when the id names no service. */
export async function serviceWithHistory(pool: ReadPool, id: string): Promise<ServicePageData | null> {
  if (!isServiceId(id)) return null;
  const [detail, history, daily] = await Promise.all([
    getServiceDetail(pool, id),
    getServiceHistory(pool, id, {}, { offset: 0, limit: CHARTED_HISTORY }),
    getServiceDaily(pool, id, CHARTED_DAYS),
  ]);
  if (!detail || !history || !daily) return null;
  return {
    service: serviceDetailJson(detail),
    history: history.items.map(historyJson),
    daily: daily.map(dailyJson),
  };
}

export async function serviceDetail(pool: ReadPool, id: string): Promise<ServiceView | null> {
  const detail = isServiceId(id) ? await getServiceDetail(pool, id) : null;
  return detail && serviceDetailJson(detail);
}
