/**
 * Strings that many entries share (tags, methods, networks, assets, sources), kept once: every
 * row Postgres returns carries its own copy, and 100,000 entries' copies add up.
 */
export class Interned {
  private readonly strings = new Map<string, string>();

  of(value: string): string;
  of(value: string | null): string | null;
  of(value: string | null): string | null {
    if (value === null) return null;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }
}
