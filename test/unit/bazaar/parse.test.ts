import { describe, expect, it } from "vitest";
import { BazaarFeedError, parseBazaarItem, parseBazaarPage } from "../../../src/sources/bazaar/parse";
import type { BazaarResource } from "../../../src/sources/bazaar/types";
import { BASE_USDC, PAY_TO, page, v1Item, v2Item } from "./fixtures";

/** The accepts entry of the v1 fixture item. */
const v1Accepts = () => (v1Item().accepts as Record<string, unknown>[])[0];

/** Parses one item, failing the test if it was skipped. */
function item(raw: unknown): BazaarResource {
  const result = parseBazaarItem(raw, null);
  if (typeof result === "string") throw new Error(`item skipped: ${result}`);
  return result;
}

describe("parseBazaarItem: v1 item", () => {
  it("reads URL, method, description and payment option", () => {
    expect(item(v1Item())).toEqual({
      resourceUrl: "https://api.weatherwise.example/v1/forecast",
      origin: "https://api.weatherwise.example",
      host: "api.weatherwise.example",
      method: "GET",
      description: "7-day forecast for a city",
      serviceName: null,
      iconUrl: null,
      tags: [],
      lastUpdated: new Date("2025-10-20T14:03:11.532Z"),
      totalCalls30d: null,
      uniquePayers30d: null,
      lastCalledAt: null,
      paymentOptions: [
        {
          scheme: "exact",
          network: "eip155:8453",
          network_name: "base",
          asset: BASE_USDC,
          asset_symbol: "USDC",
          amount_atomic: "10000",
          price_usdc: "0.01",
          pay_to: PAY_TO,
          max_timeout_seconds: 300,
          warnings: [],
          payable: true,
          unpayable_reasons: [],
        },
      ],
      call: {
        format: "v1_output_schema",
        input: { type: "http", method: "GET", queryParams: { city: "string" } },
        output: null,
        input_schema: null,
        route_template: null,
      },
      warnings: [],
    } satisfies BazaarResource);
  });

  it("takes the method from outputSchema, upper-cased", () => {
    const raw = v1Item();
    const accepts = raw.accepts as Record<string, unknown>[];
    accepts[0] = { ...accepts[0], outputSchema: { input: { type: "http", method: "post" } } };
    expect(item(raw).method).toBe("POST");
  });

  it("defaults the method to GET and flags an unknown one", () => {
    const raw = v1Item({ metadata: { method: "FETCH" } });
    const accepts = raw.accepts as Record<string, unknown>[];
    accepts[0] = { ...accepts[0], outputSchema: null };
    const parsed = item(raw);
    expect(parsed.method).toBe("GET");
    expect(parsed.warnings).toContain("unknown HTTP method ignored: FETCH");
  });
});

describe("parseBazaarItem: v2 item", () => {
  const parsed = item(v2Item());

  it("drops the fragment, keeps the query and lower-cases the host", () => {
    expect(parsed.resourceUrl).toBe("https://api.searchly.example:8443/v2/search?q=x");
    expect(parsed.origin).toBe("https://api.searchly.example:8443");
    expect(parsed.host).toBe("api.searchly.example");
  });

  it("reads description, service name, method and quality from metadata", () => {
    expect(parsed).toMatchObject({
      description: "Web search with citations",
      serviceName: "Searchly",
      method: "POST",
      totalCalls30d: 1520,
      uniquePayers30d: 37,
      lastCalledAt: new Date("2025-10-21T08:00:00Z"),
    });
  });

  it("lower-cases and deduplicates tags", () => {
    expect(parsed.tags).toEqual(["search", "ai"]);
  });

  it("reads lastUpdated given in Unix seconds", () => {
    expect(parsed.lastUpdated?.toISOString()).toBe("2025-10-20T22:40:00.000Z");
  });

  it("normalises every payment option", () => {
    expect(parsed.paymentOptions.map((o) => [o.network_name, o.price_usdc])).toEqual([
      ["base", "0.0025"],
      ["solana", "0.0025"],
    ]);
  });

  it("prefers top-level fields and quality over metadata", () => {
    const top = item(
      v2Item({
        description: "Top-level description",
        tags: ["News"],
        quality: { l30DaysTotalCalls: 9, l30DaysUniquePayers: "4", lastCalledAt: 1761000000000 },
      }),
    );
    expect(top.description).toBe("Top-level description");
    expect(top.tags).toEqual(["news", "search", "ai"]);
    expect(top.totalCalls30d).toBe(9);
    expect(top.uniquePayers30d).toBe(4);
    expect(top.lastCalledAt?.toISOString()).toBe("2025-10-20T22:40:00.000Z");
  });

  it("reads lastUpdated given in Unix milliseconds", () => {
    expect(item(v2Item({ lastUpdated: 1761000000000 })).lastUpdated?.toISOString()).toBe(
      "2025-10-20T22:40:00.000Z",
    );
  });

  it("accepts a v2 resource object and reads its fields", () => {
    const parsed = item(
      v2Item({
        resource: {
          url: "https://api.searchly.example/v2/news",
          serviceName: "Searchly News",
          tags: ["News"],
        },
        metadata: {},
      }),
    );
    expect(parsed).toMatchObject({
      resourceUrl: "https://api.searchly.example/v2/news",
      serviceName: "Searchly News",
    });
    expect(parsed.tags).toEqual(["news"]);
  });
});

describe("parseBazaarItem: odd values are kept with warnings", () => {
  it("keeps non-standard payment values on the option", () => {
    const parsed = item(
      v2Item({
        accepts: [
          { scheme: "exact", network: "base-mainnet", amount: "$0.01", asset: "USDC", maxTimeoutSeconds: 60 },
        ],
      }),
    );
    expect(parsed.paymentOptions).toHaveLength(1);
    const [option] = parsed.paymentOptions;
    expect(option).toMatchObject({ network: "eip155:8453", price_usdc: "0.01", pay_to: null });
    expect(option?.warnings).toEqual(
      expect.arrayContaining([
        "network is not a standard x402 name: base-mainnet (read as base)",
        "amount is not an atomic integer: $0.01 (read as 0.01 USDC)",
        "asset is a symbol, not a token address: USDC (assumed 6-decimal USDC)",
        "payTo is missing",
      ]),
    );
  });

  it("when no accepts entry is readable, then the item is rejected with the entries' problems", () => {
    expect(parseBazaarItem(v1Item({ accepts: ["exact"] }), 1)).toBe(
      "no payment requirements: no readable accepts entry (accepts[0] skipped: not an object (string))",
    );
  });

  it.each([
    ["missing", undefined, "no payment requirements: accepts is missing"],
    ["null", null, "no payment requirements: accepts is missing"],
    ["empty", [], "no payment requirements: accepts is empty"],
  ])("when accepts is %s, then the item is rejected as not a paid resource", (_, accepts, reason) => {
    expect(parseBazaarItem(v2Item({ accepts }), 2)).toBe(reason);
  });

  it("ignores a wrongly typed field with a warning", () => {
    const parsed = item(v2Item({ metadata: { serviceName: 42, quality: { l30DaysTotalCalls: -3 } } }));
    expect(parsed.serviceName).toBeNull();
    expect(parsed.totalCalls30d).toBeNull();
    expect(parsed.warnings).toEqual(
      expect.arrayContaining([
        "metadata.serviceName ignored: 42",
        "metadata.quality.l30DaysTotalCalls ignored: -3",
      ]),
    );
  });

  it("flags a type other than http or mcp", () => {
    expect(item(v1Item({ type: "facilitator" })).warnings).toContain("type is not http: facilitator");
  });

  it("reads a feed that names the field url instead of resource", () => {
    const { resource: _omitted, ...raw } = v1Item();
    const parsed = item({ ...raw, url: "https://facilitator.example/" });
    expect(parsed.resourceUrl).toBe("https://facilitator.example/");
    expect(parsed.warnings).toContain("item uses url instead of resource");
  });
});

describe("parseBazaarPage", () => {
  it("reads items and pagination", () => {
    const result = parseBazaarPage(page([v1Item(), v2Item()], { limit: 2, offset: 0, total: 913 }));
    expect(result.items.map((i) => i.host)).toEqual(["api.weatherwise.example", "api.searchly.example"]);
    expect(result.pagination).toEqual({ limit: 2, offset: 0, total: 913 });
    expect(result.problems).toEqual([]);
  });

  it("skips malformed items with their index and reason, keeping the rest", () => {
    const result = parseBazaarPage(
      page([
        null,
        v1Item(),
        "https://api.example/",
        v1Item({ resource: "/relative/path" }),
        v1Item({ resource: "ftp://files.example/data" }),
        // No resource anywhere: neither on the item nor repeated in its accepts entry.
        v1Item({ resource: undefined, accepts: [{ ...v1Accepts(), resource: undefined }] }),
        v2Item(),
      ]),
    );
    expect(result.items).toHaveLength(2);
    expect(result.problems).toEqual([
      { index: 0, reason: expect.stringMatching(/^not a feed item/) },
      { index: 2, reason: expect.stringMatching(/^not a feed item/) },
      { index: 3, reason: "resource is not an absolute URL: /relative/path" },
      { index: 4, reason: "resource is not http(s): ftp://files.example/data" },
      { index: 5, reason: "resource is missing" },
    ]);
  });

  it("returns null pagination when the block is missing or malformed", () => {
    expect(parseBazaarPage({ items: [] }).pagination).toBeNull();
    expect(parseBazaarPage(page([], { limit: "ten", offset: 0, total: 5 })).pagination).toBeNull();
  });

  it("accepts pagination numbers sent as strings", () => {
    expect(parseBazaarPage(page([], { limit: "100", offset: "0", total: "250" })).pagination).toEqual({
      limit: 100,
      offset: 0,
      total: 250,
    });
  });

  it("uses the page's x402Version for items that do not state one", () => {
    // An entry with `amount` would be read as v2 on its own; the page says v1.
    const { x402Version: _omitted, ...raw } = v1Item({
      accepts: [{ scheme: "exact", network: "base", amount: "10000", asset: BASE_USDC, payTo: PAY_TO }],
    });
    const result = parseBazaarPage({ x402Version: 1, items: [raw] });
    expect(result.items[0]?.paymentOptions[0]?.warnings).toContain(
      "v1 entry uses amount instead of maxAmountRequired",
    );
  });

  it("throws BazaarFeedError for an answer that is not a feed page", () => {
    expect(() => parseBazaarPage({ error: "rate limited" })).toThrow(BazaarFeedError);
    expect(() => parseBazaarPage([v1Item()])).toThrow(BazaarFeedError);
  });
});
