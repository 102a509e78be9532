import { describe, expect, it } from "vitest";
import { type ManifestReading, parseManifest } from "../../../src/sources/origin-manifest/parse-manifest";
import { BASE_USDC, PAY_TO } from "../../fixtures/bazaar/feed-items";

/**
 * One shape at a time. The manifests here are hand-made variants of what the real corpus
 * (manifest-corpus.test.ts) shows, written the way the next seller would write them differently:
 * they are not copies of published manifests.
 */
const MANIFEST = new URL("https://weather.example/.well-known/x402");

function read(json: unknown, at: URL = MANIFEST): ManifestReading {
  const reading = parseManifest(json, at);
  if (typeof reading === "string") throw new Error(`not read: ${reading}`);
  return reading;
}

const listed = (reading: ManifestReading) => reading.resources.map((r) => `${r.method} ${r.resourceUrl}`);
const elsewhere = (reading: ManifestReading) => reading.elsewhere.map((r) => `${r.method} ${r.url}`);
const prices = (reading: ManifestReading) =>
  reading.resources.map((r) => r.paymentOptions.map((o) => [o.network, o.asset, o.amount_atomic]));

describe("manifest lists", () => {
  it("when resources sit in a feed-like items array, then each item's resource is listed", () => {
    const reading = read({
      x402Version: 2,
      items: [{ resource: { url: "https://weather.example/v2/now" }, method: "POST", accepts: [] }],
    });
    expect(reading.family).toBe("items");
    expect(listed(reading)).toEqual(["POST https://weather.example/v2/now"]);
  });

  it("when the list has another name ending in a list word, then it is read; a free list is reported", () => {
    const reading = read({
      paidHttpResources: ["https://weather.example/paid"],
      payable_endpoints: { "/also-paid": "$0.01" },
      freeEndpoints: ["https://weather.example/free"],
    });
    expect(listed(reading)).toEqual([
      "GET https://weather.example/paid",
      "GET https://weather.example/also-paid",
    ]);
    expect(reading.problems).toEqual([
      expect.objectContaining({
        where: "$.freeEndpoints",
        message: "a list of free resources (1): not listed",
      }),
    ]);
  });

  it("when a resource is written with its method first, then the method and location are split", () => {
    const reading = read({
      resources: ["GET https://weather.example/a", "POST /b", { resource: "PUT /c" }, { url: "delete /d" }],
      endpoints: { "PATCH /e": { price: "$0.01" } },
    });
    expect(listed(reading)).toEqual([
      "PATCH https://weather.example/e",
      "GET https://weather.example/a",
      "POST https://weather.example/b",
      "PUT https://weather.example/c",
      "DELETE https://weather.example/d",
    ]);
  });

  it("when an item has no location but says how to call it, then its call object gives location and method", () => {
    const reading = read({
      products: [
        {
          name: "Tee",
          price: "25.00",
          currency: "USDC",
          checkout: { endpoint: "/api/checkout", method: "post" },
        },
      ],
    });
    expect(listed(reading)).toEqual(["POST https://weather.example/api/checkout"]);
  });

  it("when an item lists several methods, then each method is a resource", () => {
    expect(listed(read({ endpoints: [{ url: "/echo", methods: ["get", "POST", "BREW"] }] }))).toEqual([
      "GET https://weather.example/echo",
      "POST https://weather.example/echo",
    ]);
  });

  it("when a bare path is detailed elsewhere in the manifest, then the detailed entry is the one listed", () => {
    const reading = read({
      resources: ["/v1/probe", "/v1/other"],
      resource_details: [{ resource: "/v1/probe", method: "POST" }],
    });
    expect(listed(reading)).toEqual([
      "GET https://weather.example/v1/other",
      "POST https://weather.example/v1/probe",
    ]);
  });
});

describe("declared bases", () => {
  it("when seller_endpoint names the API host, then relative paths resolve there, not on the manifest's host", () => {
    const reading = read({ seller_endpoint: "https://api.weather.example", resources: ["/v1/probe"] });
    expect(reading.base).toBe("https://api.weather.example/");
    expect(listed(reading)).toEqual(["GET https://api.weather.example/v1/probe"]);
  });

  it("when baseUrl has a path, then item paths are appended to it", () => {
    const reading = read({
      baseUrl: "https://weather.example/api/v1/",
      endpoints: [{ path: "/search" }, { path: "lookup" }],
    });
    expect(listed(reading)).toEqual([
      "GET https://weather.example/api/v1/search",
      "GET https://weather.example/api/v1/lookup",
    ]);
  });

  it("when the base is OpenAPI's servers[].url, then the first readable server is the base", () => {
    const reading = read({
      servers: [{ url: "not a url at all" }, { url: "https://weather.example/v2" }],
      routes: [{ route: "POST /forecast" }, { url: "https://weather.example/absolute" }],
    });
    expect(listed(reading)).toEqual([
      "POST https://weather.example/v2/forecast",
      "GET https://weather.example/absolute",
    ]);
    expect(reading.problems.map((p) => [p.where, p.message])).toEqual([
      ["$.servers[0].url", "declared base is not an http(s) URL: not a url at all"],
    ]);
  });

  it("when a declared base is not an http(s) URL, then it is reported and paths stay on the manifest's origin", () => {
    const reading = read({ baseUrl: "ftp://weather.example", resources: ["/a"] });
    expect(listed(reading)).toEqual(["GET https://weather.example/a"]);
    expect(reading.problems).toEqual([
      expect.objectContaining({
        where: "$.baseUrl",
        message: "declared base is not an http(s) URL: ftp://weather.example",
      }),
    ]);
  });
});

describe("whose resources are listed", () => {
  it("when resources are on subdomains of the seller's site, then they are listed as its own", () => {
    const reading = read({ resources: ["https://api.weather.example/a", "http://weather.example/b"] });
    expect(listed(reading)).toEqual(["GET https://api.weather.example/a", "GET http://weather.example/b"]);
  });

  it("when a host only ends with the seller's name or shares a public suffix, then it is another site", () => {
    const reading = read(
      {
        resources: [
          "https://evil-seller.github.io/a",
          "https://seller.github.io.evil.example/b",
          "https://seller.github.io/c",
        ],
      },
      new URL("https://seller.github.io/.well-known/x402"),
    );
    expect(listed(reading)).toEqual(["GET https://seller.github.io/c"]);
    expect(elsewhere(reading)).toEqual([
      "GET https://evil-seller.github.io/a",
      "GET https://seller.github.io.evil.example/b",
    ]);
  });

  it("when the manifest is served from an IP address, then only that address counts as its site", () => {
    const reading = read(
      { resources: ["http://127.0.0.1:8080/a", "http://127.0.0.2/b"] },
      new URL("http://127.0.0.1:4021/.well-known/x402"),
    );
    expect(listed(reading)).toEqual(["GET http://127.0.0.1:8080/a"]);
    expect(elsewhere(reading)).toEqual(["GET http://127.0.0.2/b"]);
  });
});

describe("prices", () => {
  it("when an item has pricing as a list of {amount, asset, network}, then each is a payment option", () => {
    const reading = read({
      x402Version: 2,
      resources: [
        {
          url: "/q",
          payTo: PAY_TO,
          pricing: [
            { amount: "10000", asset: BASE_USDC, network: "eip155:8453" },
            { amount: "0.02", asset: "USDC", network: "base" },
          ],
        },
      ],
    });
    expect(prices(reading)).toEqual([
      [
        ["eip155:8453", BASE_USDC, "10000"],
        ["eip155:8453", "USDC", "20000"],
      ],
    ]);
    expect(reading.resources[0]!.paymentOptions[0]).toMatchObject({ price_usdc: "0.01", pay_to: PAY_TO });
  });

  it("when price is {amount, currency, network}, then the currency is the asset as written", () => {
    const reading = read({
      endpoints: [{ path: "/p", price: { amount: "0.25", currency: "USDC", network: "base" } }],
    });
    expect(prices(reading)).toEqual([[["eip155:8453", "USDC", "250000"]]]);
  });

  it("when an accepts entry has no asset, then the item's paymentAsset completes it and nothing else is filled in", () => {
    const reading = read({
      x402Version: 2,
      resources: [
        {
          url: "/x",
          paymentAsset: BASE_USDC,
          accepts: [
            { scheme: "exact", network: "eip155:8453", amount: "5000", payTo: PAY_TO, maxTimeoutSeconds: 60 },
          ],
        },
      ],
    });
    expect(prices(reading)).toEqual([[["eip155:8453", BASE_USDC, "5000"]]]);
    expect(reading.resources[0]!.warnings).toContain(
      "asset of accepts entries completed from the item's paymentAsset",
    );
  });

  it("when a display price is a whole number, then it is whole dollars, never one atomic unit", () => {
    const reading = read({
      network: "base",
      currency: "USDC",
      endpoints: [
        { path: "/one", price: 1 },
        { path: "/two", price_usd: "2" },
        { path: "/pts", price: 5, currency: "credits" },
      ],
    });
    expect(prices(reading)).toEqual([
      [["eip155:8453", "USDC", "1000000"]],
      [["eip155:8453", "USDC", "2000000"]],
      [["eip155:8453", "credits", null]],
    ]);
  });

  it("when a display price has no asset, then no atomic amount is made up", () => {
    const reading = read({ endpoints: [{ path: "/p", price: "$0.01", network: "base" }] });
    expect(prices(reading)).toEqual([[["eip155:8453", null, null]]]);
  });

  it("when the manifest states payment once for all items, then items without their own use it", () => {
    const reading = read({
      pricing: { amount: "0.05", asset: "USDC", network: "base-sepolia" },
      payTo: PAY_TO,
      endpoints: { verify: { path: "/verify" }, own: { path: "/own", price: "$0.10" } },
    });
    expect(prices(reading)).toEqual([
      [["eip155:84532", "USDC", "50000"]],
      [["eip155:84532", "USDC", "100000"]],
    ]);
    expect(reading.resources[0]!.warnings).toContain(
      "payment requirements read from the manifest's own fields (no accepts)",
    );
  });
});

describe("402 bodies served as manifests", () => {
  it("when a v1 body names resources on its accepts entries, then each resource is listed with its entries", () => {
    const entry = {
      scheme: "exact",
      network: "base",
      maxAmountRequired: "1000",
      asset: BASE_USDC,
      payTo: PAY_TO,
    };
    const reading = read({
      x402Version: 1,
      accepts: [
        { ...entry, resource: "https://weather.example/a" },
        { ...entry, resource: "https://weather.example/a", network: "base-sepolia" },
        { ...entry, resource: "https://weather.example/b", outputSchema: { input: { method: "POST" } } },
      ],
    });
    expect(reading.family).toBe("payment_required");
    expect(listed(reading)).toEqual(["GET https://weather.example/a", "POST https://weather.example/b"]);
    expect(reading.resources[0]!.paymentOptions.map((o) => o.network)).toEqual([
      "eip155:8453",
      "eip155:84532",
    ]);
  });
});

describe("what is not read", () => {
  it("when items cannot be read, then each is reported with its reason and nothing is listed for it", () => {
    const reading = read({
      endpoints: [
        { path: "/job/{id}" },
        { path: "/user/:userId/profile" },
        { path: "/post/[slug]" },
        { path: "/free", price_usd: 0 },
        { path: "/tier", tier: "free" },
        { description: "no location" },
        { url: "mailto:seller@weather.example" },
        7,
        { type: "mcp", resource: "https://weather.example/mcp", toolName: "forecast" },
      ],
      services: { name: "not a list either" },
    });
    expect(reading.resources).toEqual([]);
    expect(reading.problems.map((p) => [p.where, p.message])).toEqual([
      ["$.endpoints[0]", 'a URL template ({id} in "/job/{id}"): no callable URL'],
      ["$.endpoints[1]", 'a URL template (/:userId in "/user/:userId/profile"): no callable URL'],
      ["$.endpoints[2]", 'a URL template (/[slug] in "/post/[slug]"): no callable URL'],
      ["$.endpoints[3]", "free (a price of zero, or marked free): no payment asked"],
      ["$.endpoints[4]", "free (a price of zero, or marked free): no payment asked"],
      ["$.endpoints[5]", "no url, resource or path: not listed"],
      ["$.endpoints[6]", 'not an http(s) URL or path: "mailto:seller@weather.example"'],
      ["$.endpoints[7]", "not an object (7)"],
      ["$.endpoints[8]", 'a resource of type "mcp", not http: not listed as one'],
      ['$.services["name"]', "no url, resource or path: not listed"],
    ]);
  });

  it("when a map entry is named but gives no location, then it is reported rather than guessed as a path", () => {
    const reading = read({ endpoints: { verify: { method: "GET" }, "/ok": { method: "GET" } } });
    expect(listed(reading)).toEqual(["GET https://weather.example/ok"]);
    expect(reading.problems.map((p) => p.where)).toEqual(['$.endpoints["verify"]']);
  });

  it("when a document has only free lists or pointers elsewhere, then it is not a manifest", () => {
    expect(parseManifest({ freeEndpoints: ["/a"] }, MANIFEST)).toBe(
      "not a manifest: no list of paid resources in any known field (keys: freeEndpoints)",
    );
    expect(parseManifest({ name: "x", openapi: "/openapi.json" }, MANIFEST)).toBe(
      "not a manifest: no list of paid resources in any known field (keys: name, openapi)",
    );
  });
});
