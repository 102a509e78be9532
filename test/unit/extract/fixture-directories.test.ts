import { describe, expect, it } from "vitest";
import { MARKUPS, pageCount, pageOf, renderPath, SERVICES } from "../../fixtures/directories";

const PAGE_SIZE = 3;

describe("fixture directories", () => {
  it("when services are listed, then slugs, ids and names are unique and there are about 25", () => {
    expect(SERVICES.length).toBeGreaterThanOrEqual(25);
    for (const key of ["slug", "id", "name"] as const) {
      expect(new Set(SERVICES.map((s) => s[key])).size).toBe(SERVICES.length);
    }
  });

  describe.each(MARKUPS)("markup $id", (markup) => {
    it("when a page is rendered twice, then the HTML is identical", () => {
      const service = SERVICES[0];
      if (!service) throw new Error("no services");
      expect(markup.detailPage(service)).toBe(markup.detailPage(service));
      expect(markup.listingPage(SERVICES.slice(0, 3), 1, 9)).toBe(
        markup.listingPage(SERVICES.slice(0, 3), 1, 9),
      );
    });

    it("when a listing or detail path is routed, then it leads back to the same page or service", () => {
      for (let page = 1; page <= pageCount(SERVICES.length, PAGE_SIZE); page++) {
        expect(markup.route(markup.listingPath(page), SERVICES)).toEqual({ kind: "listing", page });
      }
      for (const service of SERVICES) {
        expect(markup.route(markup.detailPath(service), SERVICES)).toEqual({ kind: "detail", service });
      }
    });

    it("when a path is served, then listing pages list their services and unknown paths are null", () => {
      const service = SERVICES[7];
      if (!service) throw new Error("no services");
      const listing = renderPath(
        markup,
        SERVICES,
        markup.listingPath(pageOf(SERVICES, service, PAGE_SIZE)),
        PAGE_SIZE,
      );
      expect(listing).toContain(markup.detailPath(service).replace(/&/g, "&amp;"));
      expect(renderPath(markup, SERVICES, markup.detailPath(service), PAGE_SIZE)).toBe(
        markup.detailPage(service),
      );
      expect(renderPath(markup, SERVICES, markup.listingPath(99), PAGE_SIZE)).toBeNull();
      expect(renderPath(markup, SERVICES, "/nowhere/at/all", PAGE_SIZE)).toBeNull();
    });
  });
});
