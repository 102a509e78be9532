import { describe, expect, it } from "vitest";
import { statedPageCount } from "../../../src/extract/page-count";
import { listingOf, ORIGIN, page } from "./support";

describe("statedPageCount", () => {
  it.each([
    ["Page 3 of 40", 3, 40],
    ["page 3 of 40", 3, 40],
    ["Showing page 3 of 40", 3, 40],
    ["Page 3 / 40", 3, 40],
    ["Page 3/40", 3, 40],
    ["Page: 3 of 40", 3, 40],
    ["Page 3 out of 40", 3, 40],
    ["3 of 40 pages", 3, 40],
    ["Page 1 of 2,400", 1, 2400],
    ["Page 12 of 1.234", 12, 1234],
    ["Page 1 of 2\u00a0400", 1, 2400],
    ["Page 2000 of 2000", 2000, 2000],
    ["Page 1 of 4,000 · 200,000 services", 1, 4000],
    ["Page 3 of 40 123 results", 3, 40], // a plain space does not group digits
  ])("when the text says %j, then it is page %i of %i", (text, current, total) => {
    expect(statedPageCount(text)).toEqual({ current, total });
  });

  it.each([
    ["Showing 1–50 of 2,345 results", 1, 47],
    ["Showing 101-150 of 2,345 services", 3, 47],
    ["Results 51 to 100 of 100,000 items", 2, 2000],
    ["1 - 50 of about 12,000 APIs", 1, 240],
    ["Showing 1–12 of 12 results", 1, 1],
    ["Showing 51 to 100 of 1,234", 2, 25],
    ["Displaying 1-50 of 2,345.", 1, 47],
  ])("when a result range says %j, then it is page %i of %i", (text, current, total) => {
    expect(statedPageCount(text)).toEqual({ current, total });
  });

  it.each([
    ["no count at all"],
    ["Showing 2,301–2,345 of 2,345 results"], // the last page's size is not the page size
    ["Showing 7–50 of 200 results"], // a range that is not a whole page
    ["Page 5 of 3"],
    ["Page 0 of 3"],
    ["Page 1 of 20250101"], // a date, not a count
    ["Uptime 99 of 100 days"],
    ["Quota 51–100 of 1,234"], // a range without "showing" or a noun may not be results
  ])("when the text is %j, then no count is read from it", (text) => {
    expect(statedPageCount(text)).toBeNull();
  });
});

const card = (slug: string) =>
  `<div><a href="/apis/${slug}"><h3>${slug}</h3></a><p>${slug}.example</p></div>`;

describe("findPagination with last-page links", () => {
  it.each([
    ["Last", '<a href="/apis?page=2">Next</a> <a href="/apis?page=4000">Last</a>'],
    ["Last page", '<a href="/apis?page=2">2</a> <a href="/apis?page=4000">Last page</a>'],
    ["»»", '<a href="/apis?page=2">»</a> <a href="/apis?page=4000">»»</a>'],
    ["rel=last", '<a href="/apis?page=2" rel="next">Next</a> <a rel="last" href="/apis?page=4000">End</a>'],
    ["aria-label", '<a href="/apis?page=2">›</a> <a href="/apis?page=4000" aria-label="Last page">⇥</a>'],
  ])("when a %s link points at page 4000, then the listing states 4000 pages", (_, pager) => {
    const html = page(`<main>${card("alpha")}${card("beta")}<nav>${pager}</nav></main>`);
    const result = listingOf(html, "/apis");
    expect(result.pageInfo).toEqual({ current: 1, total: 4000 });
    expect(result.listingUrls).toContain(`${ORIGIN}/apis?page=4000`);
  });

  it("when a last-page link is on a /page/N path, then its number is the count", () => {
    const html = page(`<main>${card("alpha")}<nav><a href="/apis/page/2">Next ›</a>
      <a href="/apis/page/812">Last »</a></nav></main>`);
    expect(listingOf(html, "/apis").pageInfo).toEqual({ current: 1, total: 812 });
  });

  it("when the last-page link carries no page number, then no count is stated", () => {
    const html = page(`<main>${card("alpha")}<nav><a href="/apis?page=2">Next</a>
      <a href="/apis/the-end">Last</a></nav></main>`);
    expect(listingOf(html, "/apis").pageInfo).toBeNull();
  });

  it("when the listing states 4000 pages, then a page carries only its neighbours, not all 4000", () => {
    const html = page(`<main>${card("alpha")}<p>Page 100 of 4,000</p></main>`);
    const urls = listingOf(html, "/apis?page=100").listingUrls;
    const numbers = urls.map((u) => Number(new URL(u).searchParams.get("page"))).sort((a, b) => a - b);
    expect(numbers[0]).toBe(75);
    expect(numbers.at(-1)).toBe(125);
    expect(numbers).toHaveLength(50);
  });
});
