import { bisect } from "../tables/sorted-lists";

/** A packed lexicon's parts: plain data a worker moves and an image stores. */
export interface PackedLexemes {
  text: string;
  starts: Int32Array;
  ids: Int32Array;
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

  static of({ text, starts, ids }: PackedLexemes): PackedLexicon {
    return new PackedLexicon(text, starts, ids);
  }

  /** What it is made of, to move or store it. */
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
