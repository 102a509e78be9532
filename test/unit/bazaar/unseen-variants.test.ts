import { describe, expect, it } from "vitest";
import { BazaarFeedError, parseBazaarItem, parseBazaarPage } from "../../../src/sources/bazaar/parse";
import { groupIntoServices } from "../../../src/sources/bazaar/services";
import type { BazaarResource } from "../../../src/sources/bazaar/types";
import { ARBITRUM_USDC, BASE_SEPOLIA_USDC, POLYGON_USDC, v1Entry, v2Entry } from "../payments/fixtures";
import { page, SOLANA_USDC, v1Item, v2Item } from "./fixtures";

/**
 * Feed shapes the other parser tests do not cover, as facilitators other than CDP (and older or
 * newer CDP releases) publish them. Token contracts are the real USDC deployments; sellers are
 * made up.
 */

const AVALANCHE_USDC = "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E";
const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const SOLANA_DEVNET_USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const BASE_WETH = "0x4200000000000000000000000000000000000006";

/** Parses one item, failing the test if it was skipped. */
function item(raw: unknown, pageVersion: number | null = null): BazaarResource {
  const result = parseBazaarItem(raw, pageVersion);
  if (typeof result === "string") throw new Error(`item skipped: ${result}`);
  return result;
}

const pricesOf = (resource: BazaarResource) =>
  resource.paymentOptions.map((o) => [o.network_name, o.asset_symbol, o.amount_atomic, o.price_usdc]);

describe("unseen variants: networks and assets", () => {
  it("when a v2 item offers USDC on several CAIP-2 chains in atomic units, then each option is priced exactly", () => {
    const parsed = item(
      v2Item({
        accepts: [
          v2Entry({ amount: "1000" }),
          v2Entry({ network: "eip155:137", asset: POLYGON_USDC, amount: "1000" }),
          v2Entry({ network: "eip155:42161", asset: ARBITRUM_USDC, amount: "1001" }),
        ],
      }),
    );
    expect(pricesOf(parsed)).toEqual([
      ["base", "USDC", "1000", "0.001"],
      ["polygon", "USDC", "1000", "0.001"],
      ["arbitrum", "USDC", "1001", "0.001001"],
    ]);
    expect(parsed.paymentOptions.map((o) => o.network)).toEqual([
      "eip155:8453",
      "eip155:137",
      "eip155:42161",
    ]);
  });

  it("when a v1 item is paid on avalanche with the Avalanche USDC contract, then it is priced as USDC", () => {
    const parsed = item(
      v1Item({
        accepts: [v1Entry({ network: "avalanche", asset: AVALANCHE_USDC, maxAmountRequired: "50000" })],
      }),
    );
    expect(parsed.paymentOptions[0]).toMatchObject({
      network: "eip155:43114",
      network_name: "avalanche",
      asset_symbol: "USDC",
      price_usdc: "0.05",
    });
  });

  it("when a v2 item is paid on Solana devnet with devnet USDC, then it is priced as USDC", () => {
    const parsed = item(
      v2Item({ accepts: [v2Entry({ network: SOLANA_DEVNET, asset: SOLANA_DEVNET_USDC, amount: "2500" })] }),
    );
    expect(pricesOf(parsed)).toEqual([["solana-devnet", "USDC", "2500", "0.0025"]]);
  });

  it("when the asset address is written in lower case, then it is still USDC and kept as written", () => {
    const lower = BASE_SEPOLIA_USDC.toLowerCase();
    const parsed = item(v1Item({ accepts: [v1Entry({ network: "base-sepolia", asset: lower })] }));
    expect(parsed.paymentOptions[0]).toMatchObject({
      network: "eip155:84532",
      asset: lower,
      asset_symbol: "USDC",
      price_usdc: "0.01",
    });
  });

  it("when one item offers USDC and a non-USDC token, then only the USDC options get a USDC price", () => {
    const parsed = item(
      v2Item({
        accepts: [
          v2Entry({ amount: "20000" }),
          v2Entry({ asset: BASE_WETH, amount: "5000000000000" }),
          v2Entry({
            network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
            asset: SOLANA_USDC,
            amount: "20000",
          }),
        ],
      }),
    );
    expect(pricesOf(parsed)).toEqual([
      ["base", "USDC", "20000", "0.02"],
      ["base", null, "5000000000000", null],
      ["solana", "USDC", "20000", "0.02"],
    ]);
  });
});

describe("unseen variants: amounts", () => {
  it("when the amount is a JSON number within the safe range, then it is read exactly, with a warning", () => {
    const [option] = item(v2Item({ accepts: [v2Entry({ amount: 12345 })] })).paymentOptions;
    expect(option).toMatchObject({ amount_atomic: "12345", price_usdc: "0.012345" });
    expect(option?.warnings).toContain("amount is a number: 12345");
  });

  it("when an atomic amount string is beyond 2^53, then it is kept digit for digit", () => {
    const [option] = item(v2Item({ accepts: [v2Entry({ amount: "123456789012345678901" })] })).paymentOptions;
    expect(option).toMatchObject({
      amount_atomic: "123456789012345678901",
      price_usdc: "123456789012345.678901",
    });
  });

  it("when an atomic amount is a JSON number beyond 2^53, then it is not read (its digits are already lost), and no price is given", () => {
    // JSON.parse has rounded 9007199254740993 to ...992: any price made from it would be wrong.
    const { amount } = JSON.parse('{ "amount": 9007199254740993 }') as { amount: number };
    const [option] = item(v2Item({ accepts: [v2Entry({ amount })] })).paymentOptions;
    expect(option).toMatchObject({ amount_atomic: null, price_usdc: null });
    expect(option?.warnings).toContain(
      "amount is a number too large to be exact: 9007199254740992 (send it as a string)",
    );
  });
});

describe("unseen variants: resources", () => {
  it("when resources differ by query string, trailing slash or default port, then URLs are kept apart as written, the default port dropped", () => {
    const resources = [
      "https://api.quotes.example/v1/ticker?symbol=AAPL",
      "https://api.quotes.example/v1/ticker?symbol=MSFT",
      "https://api.quotes.example/v1/ticker/",
      "https://API.quotes.example:443/v1/ticker",
    ].map((resource) => item(v1Item({ resource })));
    const [service, ...rest] = groupIntoServices(resources);
    expect(rest).toEqual([]);
    expect(service?.detailUrl).toBe("https://api.quotes.example");
    // A trailing slash is a different path to the server; merging the two would be a guess.
    expect(service?.service.endpoints.map((e) => e.url)).toEqual([
      "https://api.quotes.example/v1/ticker",
      "https://api.quotes.example/v1/ticker/",
      "https://api.quotes.example/v1/ticker?symbol=AAPL",
      "https://api.quotes.example/v1/ticker?symbol=MSFT",
    ]);
  });

  it("when the item has no resource but its v1 accepts entries name it, then that URL is used, with a warning", () => {
    const { resource: _omitted, ...raw } = v1Item({
      accepts: [
        v1Entry(),
        v1Entry({
          network: "solana",
          asset: SOLANA_USDC,
          payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        }),
      ],
    });
    const parsed = item(raw);
    expect(parsed.resourceUrl).toBe("https://api.weatherwise.example/v1/forecast");
    expect(parsed.host).toBe("api.weatherwise.example");
    expect(parsed.warnings).toContain("item has no resource; read from accepts[].resource");
  });

  it("when the item has no resource and its accepts entries name different ones, then it is skipped, not guessed", () => {
    const { resource: _omitted, ...raw } = v1Item({
      accepts: [v1Entry(), v1Entry({ resource: "https://api.weatherwise.example/v1/history" })],
    });
    expect(parseBazaarItem(raw, 1)).toBe(
      "resource is missing, and the accepts entries name different resources: " +
        "https://api.weatherwise.example/v1/forecast, https://api.weatherwise.example/v1/history",
    );
  });

  it("when items and entries carry fields nobody documented, then they are ignored and the rest is read as usual", () => {
    const raw = v2Item({
      accepts: [
        v2Entry({
          amount: "10000",
          chainId: 8453,
          feeBps: 0,
          extra: { name: "USD Coin", version: "2", decimals: 6 },
        }),
      ],
      id: "res_01J9Z",
      discoverable: true,
      facilitator: { name: "someone", url: "https://facilitator.example" },
    });
    const parsed = item(raw);
    expect(parsed.resourceUrl).toBe("https://api.searchly.example:8443/v2/search?q=x");
    expect(pricesOf(parsed)).toEqual([["base", "USDC", "10000", "0.01"]]);
    expect(parsed.warnings).toEqual([]);
  });
});

describe("unseen variants: timestamps", () => {
  it.each([
    ["an ISO string with an offset", "2025-10-21T00:40:00+02:00"],
    ["ISO with microseconds (Python isoformat)", "2025-10-20T22:40:00.000000+00:00"],
    ["Unix seconds with a fraction", 1761000000.0],
    ["Unix milliseconds as a string", "1761000000000"],
    ["an HTTP date", "Mon, 20 Oct 2025 22:40:00 GMT"],
  ])("when lastUpdated is %s, then it is read as that instant", (_form, lastUpdated) => {
    const parsed = item(v2Item({ lastUpdated }));
    expect(parsed.lastUpdated?.toISOString()).toBe("2025-10-20T22:40:00.000Z");
  });

  it("when lastUpdated is a date in words without a zone, then it is not read (the host's zone would decide it)", () => {
    const parsed = item(v2Item({ lastUpdated: "Oct 20, 2025 22:40" }));
    expect(parsed.lastUpdated).toBeNull();
    expect(parsed.warnings).toContain("lastUpdated has no time zone and is not ISO 8601: Oct 20, 2025 22:40");
  });
});

describe("unseen variants: page envelopes", () => {
  it("when a page names its array resources (the search answer of @x402/extensions), then its items are read", () => {
    const result = parseBazaarPage({
      x402Version: 2,
      resources: [v1Item(), v2Item()],
      partialResults: false,
      pagination: { limit: 2, cursor: "eyJvZmZzZXQiOjJ9" },
    });
    expect(result.items.map((i) => i.host)).toEqual(["api.weatherwise.example", "api.searchly.example"]);
    // Cursor paging states no total: the walk follows the cursor page by page instead of planning.
    expect(result.pagination).toBeNull();
    expect(result.continuation).toEqual({ kind: "cursor", cursor: "eyJvZmZzZXQiOjJ9", param: "cursor" });
  });

  it("when a page has no pagination block but states limit, offset and total beside its items, then those are used", () => {
    const result = parseBazaarPage({ x402Version: 1, items: [v1Item()], limit: 1, offset: 0, total: 40 });
    expect(result.items).toHaveLength(1);
    expect(result.pagination).toEqual({ limit: 1, offset: 0, total: 40 });
  });

  it("when a page says hasMore and next but no total, then it has no pagination and its next link is its continuation", () => {
    const result = parseBazaarPage(
      page([v1Item()], { limit: 1, offset: 0, hasMore: true, next: "/resources?offset=1" }),
    );
    expect(result.items).toHaveLength(1);
    expect(result.pagination).toBeNull();
    expect(result.continuation).toEqual({ kind: "link", href: "/resources?offset=1" });
  });

  it("when a Go facilitator sends items: null for an empty list, then the page is read as empty", () => {
    const result = parseBazaarPage({
      x402Version: 2,
      items: null,
      pagination: { limit: 100, offset: 0, total: 0 },
    });
    expect(result).toEqual({
      items: [],
      pagination: { limit: 100, offset: 0, total: 0 },
      continuation: { kind: "none" },
      problems: [],
    });
  });

  it("when the answer is a bare array of items, then it is refused as a page", () => {
    // No envelope means no total and no version: the walk could never know it read the whole
    // feed, and a bare array is also what error lists look like. Origin manifests (another
    // source kind) do accept bare arrays.
    expect(() => parseBazaarPage([v1Item(), v2Item()])).toThrow(BazaarFeedError);
  });

  it("when items mix v1 and v2 on a page that states x402Version 2, then each item's own version decides", () => {
    const result = parseBazaarPage(page([v1Item(), v2Item()]));
    expect(result.items.map((i) => i.paymentOptions[0]?.warnings)).toEqual([[], []]);
    expect(result.items.map((i) => i.paymentOptions[0]?.price_usdc)).toEqual(["0.01", "0.0025"]);
  });
});
