import { describe, expect, it } from "vitest";
import type { RawServiceDetail } from "../../../src/extract/types";
import { normaliseServiceDetail } from "../../../src/normalise/service";

const PAGE = "https://directory.example/services/weather";

function raw(overrides: Partial<RawServiceDetail> = {}): RawServiceDetail {
  return {
    name: "Weather API",
    domain: "api.weather.io",
    description: "Current weather,\n  by city.",
    category: "Data",
    endpoints: [{ method: "GET", url: "https://api.weather.io/v1/now", description: "Now" }],
    stats: {
      uptime30d: "99.82%",
      avgResponse30d: "412 ms",
      infoUpdated: "Nov 20, 2026",
      volume30d: "$12.3K",
      txCount30d: "14.05K",
      payerCount30d: "987",
    },
    tags: ["#Weather", "ai, data"],
    ...overrides,
  };
}

describe("normaliseServiceDetail", () => {
  it("when every value is readable, then the service holds typed values and no problems", () => {
    const { service, problems } = normaliseServiceDetail(raw(), PAGE);
    expect(problems).toEqual([]);
    expect(service).toEqual({
      name: "Weather API",
      domain: "api.weather.io",
      description: "Current weather, by city.",
      category: "Data",
      endpoints: [{ method: "GET", url: "https://api.weather.io/v1/now", description: "Now" }],
      tags: ["weather", "ai", "data"],
      stats: {
        uptime30d: 99.82,
        avgResponseMs30d: 412,
        infoUpdatedAt: new Date("2026-11-20T00:00:00.000Z"),
        volumeUsdc30d: "12300",
        txCount30d: 14050,
        payerCount30d: 987,
      },
    });
  });

  it("when stats are missing or shown as placeholders, then they are null (not 0) and not problems", () => {
    const { service, problems } = normaliseServiceDetail(
      raw({ stats: { uptime30d: "—", avgResponse30d: "N/A", volume30d: "-", txCount30d: "" } }),
      PAGE,
    );
    expect(problems).toEqual([]);
    expect(service.stats).toEqual({
      uptime30d: null,
      avgResponseMs30d: null,
      infoUpdatedAt: null,
      volumeUsdc30d: null,
      txCount30d: null,
      payerCount30d: null,
    });
  });

  it("when stats are unreadable, then each becomes null with one problem naming page, field and text", () => {
    const { service, problems } = normaliseServiceDetail(
      raw({
        stats: {
          uptime30d: "99.9%%",
          avgResponse30d: "fast",
          infoUpdated: "11/10/2026",
          volume30d: "€5",
          txCount30d: "1.5",
          payerCount30d: "-3",
        },
      }),
      PAGE,
    );
    expect(service.stats).toEqual({
      uptime30d: null,
      avgResponseMs30d: null,
      infoUpdatedAt: null,
      volumeUsdc30d: null,
      txCount30d: null,
      payerCount30d: null,
    });
    expect(problems.map(({ field, page, text }) => ({ field, page, text }))).toEqual([
      { field: "stats.uptime30d", page: PAGE, text: "99.9%%" },
      { field: "stats.avgResponse30d", page: PAGE, text: "fast" },
      { field: "stats.infoUpdated", page: PAGE, text: "11/10/2026" },
      { field: "stats.volume30d", page: PAGE, text: "€5" },
      { field: "stats.txCount30d", page: PAGE, text: "1.5" },
      { field: "stats.payerCount30d", page: PAGE, text: "-3" },
    ]);
    for (const problem of problems) expect(problem.reason).not.toBe("");
  });

  it("when a count exceeds the INTEGER column, then it is a problem rather than a stored value", () => {
    const { service, problems } = normaliseServiceDetail(raw({ stats: { txCount30d: "2.5B" } }), PAGE);
    expect(service.stats.txCount30d).toBeNull();
    expect(problems).toMatchObject([{ field: "stats.txCount30d", text: "2.5B" }]);
  });

  it("when the largest INTEGER count is shown, then it is stored", () => {
    const { service, problems } = normaliseServiceDetail(
      raw({ stats: { payerCount30d: "2,147,483,647" } }),
      PAGE,
    );
    expect(problems).toEqual([]);
    expect(service.stats.payerCount30d).toBe(2_147_483_647);
  });

  it("when the info date is relative and now is given, then it is resolved against now", () => {
    const { service, problems } = normaliseServiceDetail(
      raw({ stats: { infoUpdated: "3 hours ago" } }),
      PAGE,
      undefined,
      {
        now: new Date("2026-11-20T14:00:00Z"),
      },
    );
    expect(problems).toEqual([]);
    expect(service.stats.infoUpdatedAt?.toISOString()).toBe("2026-11-20T11:00:00.000Z");
  });

  it("when the info date is relative and no now is given, then it is a problem", () => {
    const { service, problems } = normaliseServiceDetail(
      raw({ stats: { infoUpdated: "3 hours ago" } }),
      PAGE,
    );
    expect(service.stats.infoUpdatedAt).toBeNull();
    expect(problems).toMatchObject([{ field: "stats.infoUpdated", text: "3 hours ago" }]);
  });

  describe("name", () => {
    const listing = { name: "Weather (listing)", domain: "listing.weather.io", description: "From listing" };

    it("when the detail page has a name, then it wins over the listing", () => {
      expect(normaliseServiceDetail(raw({ name: "  Weather\nAPI " }), PAGE, listing).service.name).toBe(
        "Weather API",
      );
    });

    it.each([null, "", "  ", "—"])("when the detail name is %j, then the listing name is used", (name) => {
      expect(normaliseServiceDetail(raw({ name }), PAGE, listing).service.name).toBe("Weather (listing)");
    });

    it("when neither page has a name, then the domain is used", () => {
      const result = normaliseServiceDetail(raw({ name: null }), PAGE, { ...listing, name: "N/A" });
      expect(result.service.name).toBe("api.weather.io");
    });

    it("when no name and no domain are known, then the name is null", () => {
      const result = normaliseServiceDetail(raw({ name: null, domain: null, endpoints: [] }), PAGE);
      expect(result.service.name).toBeNull();
    });
  });

  describe("domain", () => {
    it.each([
      ["API.Weather.IO", "api.weather.io"],
      ["https://api.weather.io/docs", "api.weather.io"],
    ])("when the page shows %j, then the domain is %j", (domain, expected) => {
      expect(normaliseServiceDetail(raw({ domain }), PAGE).service.domain).toBe(expected);
    });

    it("when the page shows none, then the host of the first absolute endpoint is used", () => {
      const endpoints = [
        { method: "GET", url: "/relative/only", description: null },
        { method: "POST", url: "https://Pay.Weather.io/v1/buy", description: null },
        { method: "GET", url: "https://other.example/x", description: null },
      ];
      const result = normaliseServiceDetail(raw({ domain: null, endpoints }), PAGE, {
        name: null,
        domain: "listing.weather.io",
        description: null,
      });
      expect(result.service.domain).toBe("pay.weather.io");
    });

    it("when the page shows none and there are no absolute endpoints, then the listing domain is used", () => {
      const endpoints = [{ method: "GET", url: "/v1/now", description: null }];
      const result = normaliseServiceDetail(raw({ domain: "—", endpoints }), PAGE, {
        name: null,
        domain: "Listing.Weather.io",
        description: null,
      });
      expect(result.service.domain).toBe("listing.weather.io");
    });

    it("when the page's domain is unreadable, then it is reported and the next source is used", () => {
      const result = normaliseServiceDetail(raw({ domain: "see website" }), PAGE);
      expect(result.service.domain).toBe("api.weather.io");
      expect(result.problems).toMatchObject([{ field: "domain", text: "see website", page: PAGE }]);
    });

    it("when nothing tells the domain, then it is null", () => {
      expect(normaliseServiceDetail(raw({ domain: null, endpoints: [] }), PAGE).service.domain).toBeNull();
    });
  });

  describe("description and category", () => {
    it("when the detail description is missing, then the listing description is used", () => {
      const result = normaliseServiceDetail(raw({ description: "N/A" }), PAGE, {
        name: null,
        domain: null,
        description: " From\u00A0listing ",
      });
      expect(result.service.description).toBe("From listing");
    });

    it("when no description exists anywhere, then it is null", () => {
      expect(normaliseServiceDetail(raw({ description: null }), PAGE).service.description).toBeNull();
    });

    it.each([
      ["  AI\n/ ML ", "AI / ML"],
      ["—", null],
      [null, null],
    ])("when the category is %j, then it becomes %j", (category, expected) => {
      expect(normaliseServiceDetail(raw({ category }), PAGE).service.category).toBe(expected);
    });
  });

  describe("endpoints", () => {
    it("when endpoints are relative, lower-case or carry fragments, then they are normalised on the service's host", () => {
      const endpoints = [
        { method: "get", url: "/v1/now#example", description: "  Now\n" },
        { method: " Post ", url: "https://api.weather.io/v1/buy", description: "—" },
      ];
      expect(normaliseServiceDetail(raw({ endpoints }), PAGE).service.endpoints).toEqual([
        { method: "GET", url: "https://api.weather.io/v1/now", description: "Now" },
        { method: "POST", url: "https://api.weather.io/v1/buy", description: null },
      ]);
    });

    it("when a relative endpoint's service has no known domain, then it resolves against the page", () => {
      const endpoints = [{ method: "GET", url: "v1/now", description: null }];
      const { service } = normaliseServiceDetail(raw({ domain: null, endpoints }), PAGE);
      expect(service.endpoints).toEqual([
        { method: "GET", url: "https://directory.example/services/v1/now", description: null },
      ]);
    });

    it("when an endpoint repeats on method and URL, then only the first is kept, in page order", () => {
      const endpoints = [
        { method: "GET", url: "https://api.weather.io/b", description: null },
        { method: "GET", url: "https://api.weather.io/a", description: "A" },
        { method: "get", url: "https://api.weather.io/b#x", description: "B later" },
        { method: "POST", url: "https://api.weather.io/b", description: "B post" },
        { method: "GET", url: "https://api.weather.io/a", description: "A again" },
      ];
      const { service, problems } = normaliseServiceDetail(raw({ endpoints }), PAGE);
      expect(problems).toEqual([]);
      expect(service.endpoints).toEqual([
        { method: "GET", url: "https://api.weather.io/b", description: "B later" },
        { method: "GET", url: "https://api.weather.io/a", description: "A" },
        { method: "POST", url: "https://api.weather.io/b", description: "B post" },
      ]);
    });

    it("when an endpoint's method is invalid or missing, then it is dropped and reported", () => {
      const endpoints = [
        { method: "FETCH", url: "https://api.weather.io/a", description: null },
        { method: null, url: "https://api.weather.io/b", description: null },
        { method: "GET", url: "https://api.weather.io/c", description: null },
      ];
      const { service, problems } = normaliseServiceDetail(raw({ endpoints }), PAGE);
      expect(service.endpoints.map((endpoint) => endpoint.url)).toEqual(["https://api.weather.io/c"]);
      expect(problems).toMatchObject([
        { field: "endpoints[0].method", text: "FETCH", page: PAGE },
        { field: "endpoints[1].method", text: "", page: PAGE },
      ]);
    });

    it("when an endpoint's URL is unusable, then it is dropped and reported", () => {
      const endpoints = [
        { method: "GET", url: "javascript:alert(1)", description: null },
        { method: "GET", url: "  ", description: null },
        { method: "GET", url: "https://api.weather.io/ok", description: null },
      ];
      const { service, problems } = normaliseServiceDetail(raw({ endpoints }), PAGE);
      expect(service.endpoints).toHaveLength(1);
      expect(problems).toMatchObject([
        { field: "endpoints[0].url", text: "javascript:alert(1)" },
        { field: "endpoints[1].url", text: "  " },
      ]);
    });

    it("when both method and URL are bad, then both are reported", () => {
      const endpoints = [{ method: "??", url: "mailto:x@y.z", description: null }];
      const { problems } = normaliseServiceDetail(raw({ endpoints }), PAGE);
      expect(problems.map((problem) => problem.field)).toEqual(["endpoints[0].method", "endpoints[0].url"]);
    });
  });

  it("when tags are given, then they are split, lower-cased and de-duplicated", () => {
    const result = normaliseServiceDetail(raw({ tags: ["#AI | Weather", "ai", "  "] }), PAGE);
    expect(result.service.tags).toEqual(["ai", "weather"]);
  });

  it("when normalising, then the raw input is not modified", () => {
    const input = raw();
    const copy = structuredClone(input);
    normaliseServiceDetail(input, PAGE);
    expect(input).toEqual(copy);
  });
});
