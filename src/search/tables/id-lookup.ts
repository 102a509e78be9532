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

/** The length of an uuid's text: ids of a table are packed at this width, in one array for them all. */
export const UUID_LENGTH = 36;

/**
 * Uuids packed as their ASCII text, UUID_LENGTH bytes each: one array for half a million ids
 * rather than as many strings, and moved from a worker thread rather than copied (copying a
 * string of 17 MB held the receiving thread for tens of ms).
 */
export type PackedIds = Uint8Array;

/** Id k of packed ids. */
export function packedIdAt(ids: PackedIds, k: number): string {
  // A Buffer view (no copy) decodes natively: 4 times faster than String.fromCharCode.
  return Buffer.from(ids.buffer, ids.byteOffset + k * UUID_LENGTH, UUID_LENGTH).toString("latin1");
}

/** Packs ids; an id that is not an uuid's text is refused. */
export function packIds(ids: readonly string[]): PackedIds {
  const packed = new Uint8Array(ids.length * UUID_LENGTH);
  ids.forEach((id, k) => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error(`an id that is not an uuid: ${id}`);
    for (let c = 0; c < UUID_LENGTH; c += 1) packed[k * UUID_LENGTH + c] = id.charCodeAt(c);
  });
  return packed;
}
