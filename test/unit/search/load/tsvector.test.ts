import { describe, expect, it } from "vitest";
import { parseTsVector } from "../../../../src/search/load/tsvector";

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

describe("parseTsVector on unusual lexemes", () => {
  it("when a lexeme holds a colon, a comma or digits, then they are part of the lexeme, not positions", () => {
    expect(parseTsVector("'10:30':1 'a,b':2D '2026':3B")).toEqual([
      { lexeme: "10:30", positions: [1 << 2] },
      { lexeme: "a,b", positions: [2 << 2] },
      { lexeme: "2026", positions: [(3 << 2) | 2] },
    ]);
  });

  it("when a position is the largest Postgres keeps (16383), then it is read whole", () => {
    expect(parseTsVector("'late':16383A")).toEqual([{ lexeme: "late", positions: [(16383 << 2) | 3] }]);
  });

  it("when a lexeme ends in an escaped quote, then its positions still follow", () => {
    expect(parseTsVector("'rock''n''':4 'x\\\\':5")).toEqual([
      { lexeme: "rock'n'", positions: [4 << 2] },
      { lexeme: "x\\", positions: [5 << 2] },
    ]);
  });
});
