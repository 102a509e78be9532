import { describe, expect, it } from "vitest";
import {
  type DetailCandidate,
  detailBudget,
  planDetailPages,
} from "../../../src/sources/html-directory/detail-plan";

const fresh = (detailUrl: string): DetailCandidate => ({ detailUrl, revalidatable: false, checkedAt: null });
const known = (detailUrl: string, checkedAt: number): DetailCandidate => ({
  detailUrl,
  revalidatable: true,
  checkedAt,
});

describe("planDetailPages", () => {
  it("when the budget covers every page, then new pages are fetched, known ones revalidated and none deferred", () => {
    const plan = planDetailPages([known("a", 5), fresh("b"), known("c", 1)], 10);
    expect(plan).toEqual({ fetch: ["b"], revalidate: ["c", "a"], deferred: [] });
  });

  it("when the budget is short, then never-read pages go first, then the least recently checked", () => {
    const plan = planDetailPages(
      [known("a", 300), known("b", 100), fresh("c"), known("d", 200), fresh("e")],
      3,
    );
    expect(plan).toEqual({ fetch: ["c", "e"], revalidate: ["b"], deferred: ["d", "a"] });
  });

  it("when a known page has no validators, then it counts as never read and is fetched in full", () => {
    const plan = planDetailPages([known("a", 1), { detailUrl: "b", revalidatable: false, checkedAt: 50 }], 1);
    expect(plan).toEqual({ fetch: ["b"], revalidate: [], deferred: ["a"] });
  });

  it("when runs follow one another with the same budget, then every known page is revisited in turn", () => {
    const checked = new Map(["a", "b", "c", "d", "e"].map((url, i) => [url, i]));
    const visits: string[][] = [];
    for (let run = 10; run < 13; run++) {
      const plan = planDetailPages(
        [...checked].map(([url, at]) => known(url, at)),
        2,
      );
      visits.push(plan.revalidate);
      for (const url of plan.revalidate) checked.set(url, run);
    }
    expect(visits).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "a"],
    ]);
  });

  it("when the budget is zero or negative, then everything is deferred", () => {
    expect(planDetailPages([fresh("a")], 0).deferred).toEqual(["a"]);
    expect(planDetailPages([fresh("a")], -3).deferred).toEqual(["a"]);
  });
});

describe("detailBudget", () => {
  it("when a run may take 50 minutes at 240 a minute and read 2,000 listing pages, then 10,000 detail requests fit", () => {
    expect(detailBudget(50, 240, 2_000)).toBe(10_000);
  });

  it("when the listing alone exceeds the budget, then no detail request fits", () => {
    expect(detailBudget(1, 240, 500)).toBe(0);
  });
});
