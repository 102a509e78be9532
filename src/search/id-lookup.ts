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
    let low = 0;
    let high = byId.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const i = byId[middle] as number;
      const other = this.idOf(i);
      if (other === id) return i;
      if (other < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  private order(): Int32Array {
    if (this.byId === null) {
      this.byId = new Int32Array(this.idPlace.length);
      for (let i = 0; i < this.idPlace.length; i += 1) this.byId[this.idPlace[i] as number] = i;
    }
    return this.byId;
  }
}
