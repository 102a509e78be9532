import { bisect } from "./sorted-lists";

/**
 * Finds an entry by id without a map of every id (a Map of half a million endpoint ids is ~40 MB,
 * and building it held the event loop): a binary search over the entries in id order. Ids are
 * uuids, whose text orders as Postgres orders them, which gave each entry its place.
 */
export class IdLookup {
  private byId: Int32Array | null = null;

  constructor(
    /** Each entry's place in id order. */
    private readonly idPlace: Int32Array,
    private readonly idOf: (i: number) => string,
  ) {}

  /** The index of the entry with this id. */
  find(id: string): number | undefined {
    const byId = this.order();
    const k = bisect(byId.length, (at) => this.idOf(byId[at] as number), id);
    return k < 0 ? undefined : byId[k];
  }

  private order(): Int32Array {
    if (this.byId === null) {
      this.byId = new Int32Array(this.idPlace.length);
      for (let i = 0; i < this.idPlace.length; i += 1) this.byId[this.idPlace[i] as number] = i;
    }
    return this.byId;
  }
}

/** The length of an uuid's text: ids of a table are packed at this width, one string for them all. */
export const UUID_LENGTH = 36;

/** Id k of ids packed at UUID_LENGTH (see UUID_LENGTH). */
export function packedIdAt(ids: string, k: number): string {
  return ids.slice(k * UUID_LENGTH, (k + 1) * UUID_LENGTH);
}

/** Ids packed at UUID_LENGTH; an id of another length (not an uuid) is refused. */
export function packIds(ids: readonly string[]): string {
  for (const id of ids) if (id.length !== UUID_LENGTH) throw new Error(`an id that is not an uuid: ${id}`);
  return ids.join("");
}
