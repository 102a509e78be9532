import { LRUCache } from "lru-cache";
import { listedEndpoints } from "../../catalogue/endpoint-queries";
import { entryRecords } from "../../catalogue/service-queries";
import type { ReadPool } from "../../db/read-pool";
import type { CatalogueSerialisers } from "../load/catalogue";

/** An endpoint item split around `verified`, which depends on the time of the request. */
export interface EndpointItem {
  head: Buffer;
  tail: Buffer;
}

/** Bytes of serialised items a process keeps (least recently used go first). */
const CACHED_BYTES = 32 * 1024 * 1024;

/**
 * The items of a page, read from Postgres by id when a page is answered, not held for the whole
 * catalogue: at 100,000 services and half a million endpoints their JSON alone is ~900 MB per
 * process. Serialised items are kept in a bounded cache for the catalogue version they were read
 * for (any change of the catalogue, even a crawl's seen times, starts it anew), so the pages
 * agents ask for again cost a lookup. Rows gone since the catalogue loaded are left out.
 */
export class CatalogueItems {
  private readonly services = new LRUCache<string, Buffer>({
    maxSize: CACHED_BYTES / 2,
    sizeCalculation: (item) => item.length,
  });
  private readonly endpoints = new LRUCache<string, EndpointItem>({
    maxSize: CACHED_BYTES / 2,
    sizeCalculation: (item) => item.head.length + item.tail.length,
  });
  /** The catalogue version (snapshot) the cached items belong to. */
  private version = "";

  constructor(
    private readonly pool: ReadPool,
    private readonly serialisers: CatalogueSerialisers,
  ) {}

  /** The items of these entries (primary row ids) in their order, each UTF-8 JSON; undefined when gone. */
  serviceItems(version: string, rowIds: readonly string[]): Promise<Array<Buffer | undefined>> {
    return this.read(version, this.services, rowIds, async (missing) => {
      const records = await entryRecords(this.pool, missing);
      return records.map((record) => [record.rowId, Buffer.from(this.serialisers.service(record))]);
    });
  }

  /** The items of these endpoints in their order; undefined when gone. */
  endpointItems(version: string, ids: readonly string[]): Promise<Array<EndpointItem | undefined>> {
    return this.read(version, this.endpoints, ids, async (missing) => {
      const hits = await listedEndpoints(this.pool, missing);
      return hits.map((hit) => {
        const { head, tail } = this.serialisers.endpoint(hit);
        return [hit.id, { head: Buffer.from(head), tail: Buffer.from(tail) }];
      });
    });
  }

  private async read<T extends object>(
    version: string,
    cache: LRUCache<string, T>,
    ids: readonly string[],
    fetch: (missing: string[]) => Promise<Array<[string, T]>>,
  ): Promise<Array<T | undefined>> {
    if (version !== this.version) {
      this.services.clear();
      this.endpoints.clear();
      this.version = version;
    }
    const items = ids.map((id) => cache.get(id));
    const missing = ids.filter((_id, k) => items[k] === undefined);
    if (missing.length === 0) return items;
    const fetched = new Map(await fetch(missing));
    // Read for an older version than the cache now holds: used, not kept.
    if (version === this.version) for (const [id, item] of fetched) cache.set(id, item);
    return ids.map((id, k) => items[k] ?? fetched.get(id));
  }
}
