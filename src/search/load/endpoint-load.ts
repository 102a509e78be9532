import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type pg from "pg";
import {
  endpointIndexQuery,
  type IndexedEndpointRow,
  type IndexedPaymentOption,
  indexedPaymentOptionsQuery,
  withVerdicts,
} from "../../catalogue/endpoint-queries";
import type { PaymentOptionRecord } from "../../catalogue/service-details";
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

/**
 * The index's payment options, read through their own cursor in step with the index's rows (the
 * same order of endpoints): each batch of endpoints takes the options that follow, while they are
 * its endpoints'.
 */
class OptionsInStep {
  private pending: IndexedPaymentOption[] = [];
  private used = 0;
  private ended = false;

  constructor(private readonly batches: AsyncGenerator<IndexedPaymentOption[]>) {}

  /** The options of these endpoints (the index's next rows), by endpoint id. */
  async of(rows: readonly IndexedEndpointRow[]): Promise<Map<string, PaymentOptionRecord[]>> {
    const options = new Map<string, PaymentOptionRecord[]>();
    for (const { id } of rows) {
      for (;;) {
        const next = await this.peek();
        if (next === undefined || next.endpointId !== id) break;
        this.used += 1;
        const { endpointId, ...option } = next;
        const list = options.get(id);
        if (list) list.push(option);
        else options.set(id, [option]);
      }
    }
    return options;
  }

  /** After the index's last row: every option was taken (else the two orders disagreed). */
  async finish(): Promise<void> {
    const left = await this.peek();
    await this.close();
    if (left !== undefined) throw new Error(`payment options of ${left.endpointId} were read out of step`);
  }

  /** Closes the options' cursor. */
  async close(): Promise<void> {
    await this.batches.return(undefined);
  }

  private async peek(): Promise<IndexedPaymentOption | undefined> {
    if (this.used === this.pending.length && !this.ended) {
      const next = await this.batches.next();
      this.ended = next.done === true;
      this.pending = next.done === true ? [] : next.value;
      this.used = 0;
    }
    return this.pending[this.used];
  }
}

/** The endpoints list's columns, read through a cursor on `client` (in its transaction), and payable counts. */
export async function readEndpointColumns(
  client: pg.PoolClient,
  signal?: AbortSignal,
): Promise<{ columns: EndpointColumnData; payable: PayableCounts }> {
  const table = new EndpointTableBuilder();
  /** By entry id (endpoints carry their entry's id). */
  const payable = new Map<string, number>();
  const options = new OptionsInStep(rowsInBatches(client, indexedPaymentOptionsQuery(), BATCH));
  try {
    for await (const rows of rowsInBatches<IndexedEndpointRow>(client, endpointIndexQuery(), BATCH)) {
      signal?.throwIfAborted();
      for (const endpoint of withVerdicts(rows, await options.of(rows))) {
        table.add(endpointFields(endpoint), endpoint.idPlace, endpoint);
        if (endpoint.payability.payable)
          payable.set(endpoint.serviceId, (payable.get(endpoint.serviceId) ?? 0) + 1);
      }
      await yieldToEventLoop();
    }
    await options.finish();
  } catch (error) {
    // The index's cursor is closed; the options' is closed too before the connection goes back.
    await options.close().catch(() => undefined);
    throw error;
  }
  const ids = [...payable.keys()].sort();
  return {
    columns: table.data(),
    payable: { ids: packIds(ids), counts: Int32Array.from(ids, (id) => payable.get(id) ?? 0) },
  };
}
