import { type ItemOrder, type ItemPasses, type PassRunner, runPasses } from "./page-order";

/**
 * A table's sort orders: each computed once, when a request first needs it or ahead of requests
 * (prepare), and held until a change of what it reads drops it. `name` names an order's key
 * (equal names: the same order); `passes` is the work that computes it.
 */
export class HeldOrders<Key> {
  private readonly held = new Map<string, ItemOrder>();
  /** Counts changes: an order prepared across one is not kept. */
  private changes = 0;

  constructor(
    private readonly name: (key: Key) => string,
    private readonly passes: (key: Key) => ItemPasses<ItemOrder>,
  ) {}

  /** The names of the orders held. */
  names(): string[] {
    return [...this.held.keys()];
  }

  /** The order of `key`, computed now if it is not held. */
  get(key: Key): ItemOrder {
    const name = this.name(key);
    const held = this.held.get(name);
    if (held) return held;
    const computed = runPasses(this.passes(key));
    this.held.set(name, computed);
    return computed;
  }

  /**
   * Computes the orders of `keys` not held, with `run` (the catalogue's runner: at once, or a
   * slice per turn of the event loop). Returns how many it computed.
   */
  async prepare(keys: Iterable<Key>, run: PassRunner): Promise<number> {
    let computed = 0;
    for (const key of keys) {
      const name = this.name(key);
      if (this.held.has(name)) continue;
      const changes = this.changes;
      const prepared = await run(this.passes(key));
      // A change meanwhile may have moved entries: what was prepared is stale and is left unheld.
      if (changes === this.changes && !this.held.has(name)) this.held.set(name, prepared);
      computed += 1;
    }
    return computed;
  }

  /** What the orders read changed: the held orders `stale` names are dropped, and any being prepared. */
  changed(stale: (name: string) => boolean): void {
    for (const name of this.names()) if (stale(name)) this.held.delete(name);
    this.changes += 1;
  }
}
