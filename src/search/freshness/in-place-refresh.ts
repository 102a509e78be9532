import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { changesSince, currentSnapshot, probedSince } from "../../catalogue/catalogue-changes";
import { type ListedEndpoint, listedEndpoints } from "../../catalogue/endpoint-queries";
import { type EntryFacets, entryFacets, NO_FACETS } from "../../catalogue/entry-facets";
import { entryRecords, type ServiceRecord } from "../../catalogue/service-queries";
import type { ReadPool } from "../../db/read-pool";
import { readInOneSnapshot } from "../../db/read-snapshot";
import { type Catalogue, serviceEntry } from "../load/catalogue";
import { Interned } from "../load/interned";
import { sameAmount } from "../tables/amounts";
import { type EndpointFields, listedEndpointFields } from "../tables/endpoint-columns";
import { sameColumnValues } from "../tables/service-column-fields";
import type { ServiceEntry } from "../tables/service-entry";
import { cheapestPrice } from "../tables/service-table";

/** What changed in place since the catalogue's snapshot, read in one newer snapshot. */
interface InPlaceChanges {
  snapshot: string;
  /** The probed endpoints, and the records and facets of their catalogue entries. */
  endpoints: ListedEndpoint[];
  records: ServiceRecord[];
  facets: Map<string, EntryFacets>;
}

/**
 * Brings a loaded catalogue up to date in place with what changed since its snapshot without
 * changing its shape: probe results and endpoints' trust verdicts (the probed endpoints and the
 * facets of their catalogue entries are read again and their entries replaced). The times crawls last saw services are in
 * the items only, which are read per page (catalogue-items.ts): they just move the snapshot. The
 * text index, columns and sort orders stay (a probe that moves an entry's cheapest price has the
 * `price` ranks computed again). A sweep probes thousands of endpoints a minute and every crawl
 * marks every service it saw: reloading the whole catalogue for those would cost every API process
 * seconds of CPU each time. Returns false, and changes nothing, when the catalogue's shape
 * changed too, or a column would change: the caller then loads the catalogue whole.
 */
export async function refreshInPlace(pool: ReadPool, catalogue: Catalogue): Promise<boolean> {
  const changes = await readInOneSnapshot(pool, async (client): Promise<InPlaceChanges | null> => {
    const snapshot = await currentSnapshot(client);
    const since = await changesSince(client, catalogue.snapshot);
    if (since.shape) return null;
    const ids = since.probes ? await probedSince(client, catalogue.snapshot) : [];
    const endpoints = ids.length === 0 ? [] : await listedEndpoints(client, ids);
    const rowIds = [
      ...new Set(
        endpoints.flatMap((endpoint) => {
          const i = catalogue.services.indexOf(endpoint.serviceId);
          return i === undefined ? [] : [catalogue.services.at(i).rowId];
        }),
      ),
    ];
    if (rowIds.length === 0) return { snapshot, endpoints, records: [], facets: new Map() };
    return {
      snapshot,
      endpoints,
      records: await entryRecords(client, rowIds),
      facets: await entryFacets(client, rowIds),
    };
  });
  return changes !== null && applyInPlace(catalogue, await planInPlace(catalogue, changes));
}

/** Rows planned between two turns of the event loop (~1-2 ms of lookups and entries). */
const ROWS_PER_TURN = 64;

/** The replacements an in-place update makes. */
interface InPlacePlan {
  snapshot: string;
  endpoints: Array<[number, EndpointFields]>;
  services: Array<[number, ServiceEntry]>;
  /** Every entry's `price` rank, when the changes move a cheapest price; null otherwise. */
  priceRanks: Int32Array | null;
}

/**
 * The replacements the changes make, worked out a slice per turn of the event loop (a sweep's
 * second of probes is hundreds of rows, 10-30 ms of lookups and new entries, which a busy
 * two-core machine stretched to 100 ms held); null when an entry cannot be replaced in place.
 * Planning only reads the catalogue, and only its holder changes it, one update at a time
 * (CatalogueKeeper), so the plan still fits when it is applied.
 */
async function planInPlace(catalogue: Catalogue, changes: InPlaceChanges): Promise<InPlacePlan | null> {
  const { services, endpoints } = catalogue;
  const turn = async (k: number) => {
    if (k % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToEventLoop();
  };
  const endpointUpdates: InPlacePlan["endpoints"] = [];
  /** Change of each entry's payable endpoint count, by the entry's shown id. */
  const payableChange = new Map<string, number>();
  for (const [k, row] of changes.endpoints.entries()) {
    const i = endpoints.indexOf(row.id);
    // Listed since the catalogue loaded: only a change of its shape does that.
    if (i === undefined) return null;
    const next = listedEndpointFields(row);
    if (!endpoints.canReplace(i, next)) return null;
    const step = Number(next.payable) - Number(endpoints.isPayable(i));
    if (step !== 0) payableChange.set(row.serviceId, (payableChange.get(row.serviceId) ?? 0) + step);
    endpointUpdates.push([i, next]);
    await turn(k);
  }
  const serviceUpdates: InPlacePlan["services"] = [];
  const strings = new Interned();
  let pricesMoved = false;
  for (const [k, record] of changes.records.entries()) {
    const i = services.indexOf(record.id);
    if (i === undefined) return null;
    const old = services.at(i);
    const next = serviceEntry(
      record,
      old.sortRanks,
      changes.facets.get(record.rowId) ?? NO_FACETS,
      old.payableEndpoints + (payableChange.get(record.id) ?? 0),
      strings,
    );
    if (!indexedFieldsEqual(old, next)) return null;
    pricesMoved ||= !sameAmount(cheapestPrice(old), cheapestPrice(next));
    serviceUpdates.push([i, next]);
    await turn(k);
  }
  const priceRanks = pricesMoved ? await services.priceRanksWith(serviceUpdates) : null;
  return { snapshot: changes.snapshot, endpoints: endpointUpdates, services: serviceUpdates, priceRanks };
}

/** Makes the planned replacements, all or none (synchronously: no request sees half of them). */
function applyInPlace(catalogue: Catalogue, plan: InPlacePlan | null): boolean {
  if (plan === null) return false;
  for (const [i, fields] of plan.endpoints) catalogue.endpoints.replace(i, fields);
  for (const [i, entry] of plan.services) catalogue.services.replace(i, entry);
  if (plan.priceRanks !== null) catalogue.services.setPriceRanks(plan.priceRanks);
  catalogue.snapshot = plan.snapshot;
  return true;
}

/**
 * The fields the services list holds in columns, lists and orders are unchanged, so the new
 * version can take the old one's place. Probes change none of them (the cheapest price, which they
 * can move, is ranked again by the table); they are checked because a reader cannot afford to be wrong.
 */
export function indexedFieldsEqual(old: ServiceEntry, next: ServiceEntry): boolean {
  return (
    old.domain === next.domain &&
    sameAmount(old.volume, next.volume) &&
    old.health === next.health &&
    sameAmount(old.observedVolume, next.observedVolume) &&
    sameColumnValues(old, next)
  );
}
