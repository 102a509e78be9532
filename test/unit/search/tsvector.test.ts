import { describe, expect, it } from "vitest";
import { parseTsVector } from "../../../src/search/tsvector";

describe("parseTsVector (tsvector text as Postgres prints it)", () => {
  it("when lexemes have weighted positions, then each position keeps its weight (A 3 … D 0)", () => {
    expect(parseTsVector("'quot':3A,7 'stock':2B,9C,12")).toEqual([
      { lexeme: "quot", positions: [(3 << 2) | 3, 7 << 2] },
      { lexeme: "stock", positions: [(2 << 2) | 2, (9 << 2) | 1, 12 << 2] },
    ]);
  });

  it("when a vector was stripped of positions, then lexemes come without positions", () => {
    expect(parseTsVector("'a' 'b'")).toEqual([
      { lexeme: "a", positions: [] },
      { lexeme: "b", positions: [] },
    ]);
  });

  it("when lexemes contain quotes, backslashes or spaces, then they are unescaped", () => {
    expect(parseTsVector("'it''s':1 'a\\\\b':2 'two words':3").map((l) => l.lexeme)).toEqual([
      "it's",
      "a\\b",
      "two words",
    ]);
  });

  it("when the vector is empty, then there are no lexemes", () => {
    expect(parseTsVector("")).toEqual([]);
  });
});
