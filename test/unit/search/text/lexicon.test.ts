import { beforeAll, describe, expect, it } from "vitest";
import { packLexemes } from "../../../../src/search/scale/text-data";
import { PackedLexicon } from "../../../../src/search/text/lexicon";

describe("PackedLexicon", () => {
  // In id order, as a builder numbers them: unsorted, with accents, digits, quotes and spaces.
  const lexemes = ["weather", "api", "zürich", "10:30", "it's", "two words", "a", "b"];
  let lexicon: PackedLexicon;
  beforeAll(async () => {
    lexicon = PackedLexicon.of(await packLexemes(lexemes));
  });

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

  it("when there are many lexemes (sorted and joined in slices), then each is found under its id", async () => {
    // Pseudo-random words, more than a slice's worth, some sharing prefixes.
    const many = Array.from({ length: 30_011 }, (_, i) => `${((i * 7_919) % 30_011).toString(36)}w${i % 13}`);
    const packed = await packLexemes(many);
    const sorted = [...many].sort();
    expect(packed.text).toBe(`${sorted.join("\0")}\0`);
    const large = PackedLexicon.of(packed);
    many.forEach((lexeme, id) => {
      expect(large.get(lexeme)).toBe(id);
    });
    expect(large.get("nonesuch")).toBeUndefined();
  });

  it("when there are no lexemes, then nothing is found", async () => {
    const empty = PackedLexicon.of(await packLexemes([]));
    expect(empty.get("api")).toBeUndefined();
    expect(empty.size).toBe(0);
  });
});
