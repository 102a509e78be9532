import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import { endpointIndexQuery, type IndexedEndpointRow, withVerdicts } from "../../catalogue/endpoint-queries";
import { rowsInBatches } from "../../db/cursor";
import { type EndpointColumnData, EndpointTableBuilder, endpointFields } from "../tables/endpoint-columns";
import { type PackedIds, packIds } from "../tables/id-lookup";

/** Rows read per step, with the event loop free between steps. */
const BATCH = 500;

/**
 * How many payable endpoints each catalogue entry has: entry ids (packed) in ascending order,
 * and their counts. Typed arrays, so a worker thread can hand them over.
 */
export interface PayableCounts {
  ids: PackedIds;
  counts: Int32Array;
}

/** The endpoints list's columns, read through a cursor on `client` (in its transaction), and payable counts. */
export async function readEndpointColumns(
  client: pg.PoolClient,
  signal?: AbortSignal,
): Promise<{ columns: EndpointColumnData; payable: PayableCounts }> {
  const table = new EndpointTableBuilder();
  /** By entry id (endpoints carry their entry's id). */
  const payable = new Map<string, number>();
  for await (const rows of rowsInBatches<IndexedEndpointRow>(client, endpointIndexQuery(), BATCH)) {
    signal?.throwIfAborted();
    for (const endpoint of await withVerdicts(client, rows)) {
      table.add(endpointFields(endpoint), endpoint.idPlace, endpoint);
      if (endpoint.payability.payable)
        payable.set(endpoint.serviceId, (payable.get(endpoint.serviceId) ?? 0) + 1);
    }
    await yieldToEventLoop();
  }
  const ids = [...payable.keys()].sort();
  return {
    columns: table.data(),
    payable: { ids: packIds(ids), counts: Int32Array.from(ids, (id) => payable.get(id) ?? 0) },
  };
}
