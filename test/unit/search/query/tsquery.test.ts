import { describe, expect, it } from "vitest";
import { parseTsQuery, queryTerms } from "../../../../src/search/query/tsquery";

const term = (lexeme: string, prefix = false, weights = 0) => ({ kind: "term", lexeme, prefix, weights });

describe("parseTsQuery (tsquery text as Postgres prints it)", () => {
  it("when the query is empty (only stop words were typed), then it is null", () => {
    expect(parseTsQuery("")).toBeNull();
    expect(parseTsQuery("   ")).toBeNull();
  });

  it("when words are joined with &, |, !, then precedence is ! over & over |", () => {
    expect(parseTsQuery("'a' | 'b' & !'c'")).toEqual({
      kind: "or",
      left: term("a"),
      right: { kind: "and", left: term("b"), right: { kind: "not", arg: term("c") } },
    });
  });

  it("when a phrase is given with <-> or <N>, then it binds tighter than & and keeps its distance", () => {
    expect(parseTsQuery("'stock' <-> 'quot' & 'api'")).toEqual({
      kind: "and",
      left: { kind: "phrase", left: term("stock"), right: term("quot"), distance: 1 },
      right: term("api"),
    });
    expect(parseTsQuery("'weather' <2> 'london'")).toMatchObject({ kind: "phrase", distance: 2 });
  });

  it("when parentheses group an alternative, then the group is one operand", () => {
    expect(parseTsQuery("( 'stock' | 'stoke' ) & 'quot'")).toEqual({
      kind: "and",
      left: { kind: "or", left: term("stock"), right: term("stoke") },
      right: term("quot"),
    });
  });

  it("when lexemes carry quotes, backslashes, prefixes or weights, then they are read back exactly", () => {
    expect(parseTsQuery("'it''s'")).toEqual(term("it's"));
    expect(parseTsQuery("'back\\\\slash'")).toEqual(term("back\\slash"));
    expect(parseTsQuery("'pre':*")).toEqual(term("pre", true));
    expect(parseTsQuery("'word':AB")).toEqual(term("word", false, 0b1100));
  });

  it("when the text is not a tsquery, then parsing fails loudly instead of guessing", () => {
    expect(() => parseTsQuery("'a' &")).toThrow(/expected/);
    expect(() => parseTsQuery("'a' 'b'")).toThrow(/end of query/);
    expect(() => parseTsQuery("'open")).toThrow(/unterminated/);
  });

  it("when a lexeme appears twice, then queryTerms lists it once, negated terms included", () => {
    const query = parseTsQuery("'a' & !'b' & 'a'");
    expect(query && queryTerms(query).map((t) => t.lexeme)).toEqual(["a", "b"]);
  });
});
