import { describe, expect, it } from "vitest";
import { bestPartialQuery, type WordClause } from "../../../../src/search/query/partial-query";
import type { TsQuery } from "../../../../src/search/query/tsquery";

/** Documents as word sets; a query matches a document as the text index would (no phrases here). */
function matcher(documents: string[][]): (query: TsQuery) => boolean {
  const holds = (query: TsQuery, doc: Set<string>): boolean => {
    if (query.kind === "term") return doc.has(query.lexeme);
    if (query.kind === "and") return holds(query.left, doc) && holds(query.right, doc);
    if (query.kind === "or") return holds(query.left, doc) || holds(query.right, doc);
    throw new Error(`not used here: ${query.kind}`);
  };
  const sets = documents.map((words) => new Set(words));
  return (query) => sets.some((doc) => holds(query, doc));
}

const clause = (word: string, correctedTo: string[] | null = null): WordClause => ({
  word,
  correctedTo,
  query: { kind: "term", lexeme: correctedTo?.[0] ?? word, prefix: false, weights: 0 },
});

/** The query as a readable string: (a & b) | (a & c). */
function show(query: TsQuery | null): string | null {
  if (query === null) return null;
  if (query.kind === "term") return query.lexeme;
  if (query.kind === "and") return `${show(query.left)} & ${show(query.right)}`;
  if (query.kind === "or") return `(${show(query.left)}) | (${show(query.right)})`;
  return query.kind;
}

describe("bestPartialQuery", () => {
  const docs = matcher([
    ["price", "feed", "token"],
    ["price", "candle"],
    ["weather", "forecast"],
  ]);

  it("when every word matches together, then all are required and nothing is partial", () => {
    const best = bestPartialQuery([clause("price"), clause("feed")], docs);
    expect(show(best.query)).toBe("price & feed");
    expect(best.reading).toEqual({ corrected: [], dropped: [], partial: false });
  });

  it("when a word matches nothing, then it is dropped and the rest are required", () => {
    const best = bestPartialQuery([clause("price"), clause("zzz"), clause("feed")], docs);
    expect(show(best.query)).toBe("price & feed");
    expect(best.reading).toEqual({ corrected: [], dropped: ["zzz"], partial: false });
  });

  it("when one combination of the most words matches, then the words outside it are dropped", () => {
    const best = bestPartialQuery([clause("price"), clause("feed"), clause("forecast")], docs);
    expect(show(best.query)).toBe("price & feed");
    expect(best.reading.dropped).toEqual(["forecast"]);
  });

  it("when several combinations match, then any of them matches and the reading is partial", () => {
    const best = bestPartialQuery([clause("token"), clause("candle"), clause("forecast")], docs);
    expect(show(best.query)).toBe("((token) | (candle)) | (forecast)");
    expect(best.reading).toEqual({ corrected: [], dropped: [], partial: true });
  });

  it("when a corrected word is kept, then the reading names its correction; a dropped one is not named", () => {
    const best = bestPartialQuery([clause("prce", ["price"]), clause("fxd", ["fed"]), clause("feed")], docs);
    expect(best.reading).toEqual({
      corrected: [{ word: "prce", to: ["price"] }],
      dropped: ["fxd"],
      partial: false,
    });
  });

  it("when no word matches anything, then there is no query and every word is dropped", () => {
    const best = bestPartialQuery([clause("aaa"), clause("bbb")], docs);
    expect(best.query).toBeNull();
    expect(best.reading.dropped).toEqual(["aaa", "bbb"]);
  });

  it("when more than eight words match alone, then combinations are not tried and any one word matches", () => {
    const words = Array.from({ length: 9 }, (_, i) => `w${i}`);
    const many = matcher([...words.map((w) => [w]), ["w0", "w1"]]);
    const best = bestPartialQuery(
      words.map((w) => clause(w)),
      many,
    );
    expect(best.reading).toEqual({ corrected: [], dropped: [], partial: true });
    expect(show(best.query)?.split("|")).toHaveLength(9);
  });
});
