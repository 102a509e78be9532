import { describe, expect, it } from "vitest";
import { PackedLexicon } from "../../../src/search/lexicon";

describe("PackedLexicon", () => {
  // In id order, as a builder numbers them: unsorted, with accents, digits, quotes and spaces.
  const lexemes = ["weather", "api", "zürich", "10:30", "it's", "two words", "a", "b"];
  const lexicon = PackedLexicon.of(PackedLexicon.pack(lexemes));

  it("when a lexeme is held, then its id is the one it was given", () => {
    lexemes.forEach((lexeme, id) => {
      expect(lexicon.get(lexeme)).toBe(id);
    });
    expect(lexicon.size).toBe(lexemes.length);
  });

  it("when a lexeme is not held (a prefix, a longer word, an empty one), then there is no id", () => {
    for (const missing of ["weath", "weathers", "", "zurich", "c"])
      expect(lexicon.get(missing)).toBeUndefined();
  });

  it("when there are no lexemes, then nothing is found", () => {
    const empty = PackedLexicon.of(PackedLexicon.pack([]));
    expect(empty.get("api")).toBeUndefined();
    expect(empty.size).toBe(0);
  });
});
