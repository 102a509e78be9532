import { describe, expect, it } from "vitest";
import { PagePlan } from "../../../src/sources/bazaar/page-plan";

function drain(plan: PagePlan): number[] {
  const offsets: number[] = [];
  for (let offset = plan.take(); offset !== null; offset = plan.take()) offsets.push(offset);
  return offsets;
}

describe("PagePlan", () => {
  it("when the first page states a total, then every later page up to it is planned once", () => {
    const plan = new PagePlan({ limit: 100, offset: 0, total: 250 }, 100, 50);
    expect(plan.pageCount).toBe(3);
    expect(drain(plan)).toEqual([100, 200]);
    expect(plan.incompleteReasons()).toEqual([]);
  });

  it("when the first page's total needs more pages than the guard, then the feed's own count is followed to its end", () => {
    const plan = new PagePlan({ limit: 10, offset: 0, total: 100 }, 10, 3);
    expect(drain(plan)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(plan.incompleteReasons()).toEqual([]);
    expect(plan.firstUnplanned).toBeNull();
  });

  it("when the total grows during the walk past both the first count and the guard, then the plan stops there and says why", () => {
    const plan = new PagePlan({ limit: 10, offset: 0, total: 40 }, 10, 3);
    expect(plan.take()).toBe(10);
    plan.observe(10, 10, { limit: 10, offset: 10, total: 100 });
    expect(drain(plan)).toEqual([20, 30]);
    expect(plan.firstUnplanned).toBe(40);
    expect(plan.incompleteReasons()).toEqual([
      expect.stringMatching(/total 40 → 100/),
      expect.stringMatching(/grew to 100 items during the walk, more than 4 pages of 10/),
    ]);
  });

  it("when a later page is empty before the total, then no offset after it is handed out", () => {
    const plan = new PagePlan({ limit: 10, offset: 0, total: 60 }, 10, 50);
    expect(plan.take()).toBe(10);
    expect(plan.take()).toBe(20);
    plan.observe(20, 0, { limit: 10, offset: 20, total: 60 });
    expect(plan.take()).toBeNull();
    expect(plan.incompleteReasons()).toEqual([expect.stringMatching(/offset 20 was empty/)]);
  });

  it("when the total grows during the walk, then the new pages are planned and the walk is marked incomplete", () => {
    const plan = new PagePlan({ limit: 10, offset: 0, total: 30 }, 10, 50);
    expect(plan.take()).toBe(10);
    plan.observe(10, 10, { limit: 10, offset: 10, total: 45 });
    expect(drain(plan)).toEqual([20, 30, 40]);
    expect(plan.incompleteReasons()).toEqual([expect.stringMatching(/total 30 → 45/)]);
  });

  it("when the total keeps changing, then the reason is given once", () => {
    const plan = new PagePlan({ limit: 10, offset: 0, total: 30 }, 10, 50);
    plan.observe(10, 10, { limit: 10, offset: 10, total: 31 });
    plan.observe(20, 10, { limit: 10, offset: 20, total: 32 });
    expect(plan.incompleteReasons()).toHaveLength(1);
  });

  it("when the feed answers another offset than asked, then paging is not trusted", () => {
    const plan = new PagePlan({ limit: 10, offset: 0, total: 30 }, 10, 50);
    plan.observe(10, 10, { limit: 10, offset: 0, total: 30 });
    expect(plan.incompleteReasons()).toEqual([expect.stringMatching(/answered offset 0 when asked for 10/)]);
  });

  it("when the server serves fewer items than the echoed limit, then the plan steps by what it served", () => {
    const plan = new PagePlan({ limit: 100, offset: 0, total: 70 }, 25, 50);
    expect(drain(plan)).toEqual([25, 50]);
  });
});
