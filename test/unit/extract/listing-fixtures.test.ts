import { describe, expect, it } from "vitest";
import { MARKUPS, pageCount, pageSlice, SERVICES } from "../../fixtures/directories";
import { collapse, listingOf, ORIGIN } from "./support";

/** 25 services, 3 per page: 9 pages, as in the seed's "page 3 of 9". */
const PAGE_SIZE = 3;
const TOTAL = pageCount(SERVICES.length, PAGE_SIZE);
const PAGES = Array.from({ length: TOTAL }, (_, i) => i + 1);

describe.each(MARKUPS)("extractListing on markup $id", (markup) => {
  const read = (page: number) =>
    listingOf(
      markup.listingPage(pageSlice(SERVICES, page, PAGE_SIZE), page, TOTAL),
      markup.listingPath(page),
    );

  it.each(PAGES)(
    "when page %i is read, then exactly its services are found with name, domain and summary",
    (page) => {
      const expected = pageSlice(SERVICES, page, PAGE_SIZE).map((s) => ({
        detailUrl: new URL(markup.detailPath(s), ORIGIN).href,
        ...markup.shownEntry(s),
      }));
      const entries = read(page).entries.map((e) => ({
        detailUrl: e.detailUrl,
        name: e.name && collapse(e.name),
        domain: e.domain && collapse(e.domain),
        description: e.description && collapse(e.description),
      }));
      expect(entries).toEqual(expected);
    },
  );

  it.each(PAGES)("when page %i is read, then every other listing page is among the listing URLs", (page) => {
    const others = PAGES.filter((n) => n !== page).map((n) => new URL(markup.listingPath(n), ORIGIN).href);
    expect([...read(page).listingUrls].sort()).toEqual(others.sort());
  });

  it("when a page states 'Page N of M', then pageInfo carries it, and otherwise it is null", () => {
    const info = read(3).pageInfo;
    if (markup.id === "table") expect(info).toBeNull();
    else expect(info).toEqual({ current: 3, total: TOTAL });
  });

  it("when site chrome, tag, category, about, login and external links surround the entries, then none is a service", () => {
    const urls = PAGES.flatMap((p) => read(p).entries.map((e) => e.detailUrl));
    const serviceUrls = new Set(SERVICES.map((s) => new URL(markup.detailPath(s), ORIGIN).href));
    expect(urls.filter((u) => !serviceUrls.has(u))).toEqual([]);
    expect(new Set(urls).size).toBe(SERVICES.length);
  });
});

describe("extractListing on the first page reached without a page number", () => {
  it("when markup cards is read at '/', then pages 2..M are generated as ?page=N from 'Page 1 of M'", () => {
    const markup = MARKUPS.find((m) => m.id === "cards");
    if (!markup) throw new Error("cards markup missing");
    const result = listingOf(markup.listingPage(pageSlice(SERVICES, 1, PAGE_SIZE), 1, TOTAL), "/");
    expect(result.listingUrls.sort()).toEqual(
      PAGES.slice(1)
        .map((n) => `${ORIGIN}/?page=${n}`)
        .sort(),
    );
  });
});
