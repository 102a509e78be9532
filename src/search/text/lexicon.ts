import { joinInSlices, sortInSlices } from "../scale/sorting-in-slices";
import { bisect } from "../tables/sorted-lists";

/** A packed lexicon's parts: plain data a worker moves and an image stores. */
export interface PackedLexemes {
  text: string;
  starts: Int32Array;
  ids: Int32Array;
}

/** The lexicon as packed parts: a packed one's own, a Map's (keys in id order, as builders number them) packed. */
export async function packedLexemes(lexicon: Lexicon): Promise<PackedLexemes> {
  return lexicon instanceof PackedLexicon ? lexicon.parts() : PackedLexicon.pack(lexicon.keys());
}

/**
 * Lexemes packed in one string, sorted, searched by bisection: what a worker thread hands over
 * (one string and two arrays to copy, where a Map of 200,000 lexemes took the receiving thread
 * 300-600 ms to build and ~20 MB to hold). A search looks up a few lexemes.
 */
export class PackedLexicon {
  private constructor(
    /** The lexemes in sorted order, each followed by NUL (which no lexeme holds). */
    private readonly text: string,
    /** Where each sorted lexeme starts in `text`, and one past the last. */
    private readonly starts: Int32Array,
    /** The id of each sorted lexeme. */
    private readonly ids: Int32Array,
  ) {}

  /**
   * Packs lexemes given in id order (a Map's keys, as a builder numbers them), sorting and
   * joining them a slice per turn of the event loop (a few hundred ms for 200,000 lexemes).
   */
  static async pack(lexemes: Iterable<string>): Promise<PackedLexemes> {
    const byId = [...lexemes];
    const order = await sortInSlices(Int32Array.from(byId.keys()), (a, b) => {
      const x = byId[a] as string;
      const y = byId[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const starts = new Int32Array(order.length + 1);
    let offset = 0;
    order.forEach((id, k) => {
      starts[k] = offset;
      offset += (byId[id] as string).length + 1;
    });
    starts[order.length] = offset;
    const text = await joinInSlices(order.length, (k) => `${byId[order[k] as number]}\0`);
    return { text, starts, ids: order };
  }

  static of({ text, starts, ids }: PackedLexemes): PackedLexicon {
    return new PackedLexicon(text, starts, ids);
  }

  /** What it is made of (see pack), to move or store it. */
  parts(): PackedLexemes {
    return { text: this.text, starts: this.starts, ids: this.ids };
  }

  get size(): number {
    return this.ids.length;
  }

  get(lexeme: string): number | undefined {
    const k = bisect(
      this.ids.length,
      (at) => this.text.slice(this.starts[at], (this.starts[at + 1] as number) - 1),
      lexeme,
    );
    return k < 0 ? undefined : this.ids[k];
  }
}

/** A text index's lexemes: each one's id. A Map when built in place; packed when moved from a worker or read from an image. */
export type Lexicon = ReadonlyMap<string, number> | PackedLexicon;
