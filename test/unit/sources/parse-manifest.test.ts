import { describe, expect, it } from "vitest";
import { type ManifestReading, parseManifest } from "../../../src/sources/origin-manifest/parse-manifest";
import { BASE_USDC, PAY_TO } from "../../fixtures/bazaar/feed-items";
import {
  bareArray,
  freeFormMap,
  SOLANA_PAY_TO,
  v1Endpoints,
  v2Endpoints,
  v2Resources,
  v2Services,
} from "../../fixtures/manifests/families";

const ORIGIN = "https://weather.example";
const MANIFEST = new URL(`${ORIGIN}/.well-known/x402`);

function read(json: unknown): ManifestReading {
  const reading = parseManifest(json, MANIFEST);
  if (typeof reading === "string") throw new Error(`not read: ${reading}`);
  return reading;
}

const listed = (reading: ManifestReading) => reading.resources.map((r) => `${r.method} ${r.resourceUrl}`);

describe("parseManifest", () => {
  it("when a v1 manifest lists endpoints with flat fields, then paths resolve on the origin and the fields are read as written", () => {
    const reading = read(v1Endpoints(ORIGIN));
    expect(reading).toMatchObject({
      family: "endpoints",
      x402Version: 1,
      name: "Weatherly",
      description: "Forecasts and severe-weather alerts, paid per call.",
    });
    expect(listed(reading)).toEqual([`GET ${ORIGIN}/v1/forecast`, `GET ${ORIGIN}/v1/alerts`]);
    const [forecast, alerts] = reading.resources;
    expect(forecast!.paymentOptions).toEqual([
      expect.objectContaining({
        network: "eip155:8453",
        asset: BASE_USDC,
        amount_atomic: "10000",
        price_usdc: "0.01",
        pay_to: PAY_TO,
        payable: true,
      }),
    ]);
    // "$0.005" on base with no asset: shown as far as it goes, never completed with a guessed asset.
    expect(alerts!.paymentOptions).toEqual([
      expect.objectContaining({ network: "eip155:8453", asset: null, amount_atomic: null, payable: false }),
    ]);
    expect(alerts!.paymentOptions[0]!.unpayable_reasons.join(" ")).toMatch(/asset/);
    expect(alerts!.warnings).toContain("payment requirements read from the item's own fields (no accepts)");
    expect(reading.problems).toEqual([
      expect.objectContaining({ where: "$.endpoints[2]", message: "no url, resource or path: not listed" }),
    ]);
  });

  it("when a v2 manifest lists endpoints with accepts, then every option is kept with its network", () => {
    const reading = read(v2Endpoints(ORIGIN));
    expect(listed(reading)).toEqual([`POST ${ORIGIN}/v2/search`]);
    const options = reading.resources[0]!.paymentOptions;
    expect(options.map((o) => [o.network_name, o.amount_atomic, o.payable])).toEqual([
      ["base", "2500", true],
      ["solana", "2500", true],
    ]);
    expect(options[1]!.pay_to).toBe(SOLANA_PAY_TO);
    expect(reading.resources[0]!.description).toBe("Semantic search over the archive");
  });

  it("when a manifest groups endpoints in services, then nested endpoints and a service that is itself a resource are read", () => {
    const reading = read(v2Services(ORIGIN));
    expect(reading.family).toBe("services");
    expect(listed(reading)).toEqual([`POST ${ORIGIN}/translate/text`, `GET ${ORIGIN}/ocr`]);
    const [translate, ocr] = reading.resources;
    expect(translate!.paymentOptions[0]).toMatchObject({
      network: "eip155:84532",
      price_usdc: "0.001",
      payable: true,
    });
    // "USDC" as the asset cannot be signed: shown, judged unpayable.
    expect(ocr!.paymentOptions[0]).toMatchObject({ asset: "USDC", payable: false });
    expect(ocr!.description).toBe("Read text from an image");
  });

  it("when a manifest lists resources like discovery items, then URL strings count, call descriptions are kept and other sites are recorded apart", () => {
    const reading = read(v2Resources(ORIGIN));
    expect(reading.family).toBe("resources");
    expect(listed(reading)).toEqual([`GET ${ORIGIN}/api/quote`, `GET ${ORIGIN}/api/history`]);
    const [quote, history] = reading.resources;
    expect(quote!.call).toMatchObject({
      format: "bazaar_extension",
      input: { queryParams: { symbol: "BTC" } },
    });
    expect(history!.paymentOptions).toEqual([]);
    expect(history!.warnings).toContain("no payment requirements published for it");
    expect(reading.elsewhere).toEqual([
      { where: "$.resources[2]", method: "GET", url: "https://someone-else.example/api/quote" },
    ]);
    expect(reading.problems).toEqual([]);
  });

  it("when a free-form manifest maps paths to prices, then map keys give the path and method", () => {
    const reading = read(freeFormMap());
    expect(reading).toMatchObject({ family: "endpoints", x402Version: null, name: "Jokes & Summaries" });
    expect(listed(reading)).toEqual([
      `GET ${ORIGIN}/joke`,
      `POST ${ORIGIN}/summarise`,
      `GET ${ORIGIN}/haiku`,
    ]);
    const [joke, summarise, haiku] = reading.resources;
    expect(joke!.paymentOptions[0]).toMatchObject({ network: null, asset: null, payable: false });
    // {amount, asset} as the x402 middleware writes a price: v2-shaped, but "base" is a v1 name,
    // which a strict v2 client refuses; shown as read, judged as written.
    expect(summarise!.paymentOptions[0]).toMatchObject({
      asset: BASE_USDC,
      amount_atomic: "5000",
      network: "eip155:8453",
      payable: false,
      unpayable_reasons: ['network "base" is a v1 name in a v2 entry (expected eip155:8453)'],
    });
    expect(haiku!.paymentOptions[0]).toMatchObject({ amount_atomic: null, payable: false });
  });

  it("when the manifest is a bare array, then readable items are listed and the rest reported", () => {
    const reading = read(bareArray());
    expect(reading.family).toBe("bare_array");
    expect(listed(reading)).toEqual([`GET ${ORIGIN}/a`]);
    expect(reading.resources[0]!.paymentOptions[0]).toMatchObject({
      network: "eip155:8453",
      amount_atomic: null,
      payable: false,
    });
    expect(reading.problems).toEqual([
      expect.objectContaining({ where: "$[1]", message: "not an object (42)" }),
    ]);
  });

  it("when an item's URL is not http(s) or not a URL at all, then it is reported, not listed", () => {
    const reading = read({
      x402Version: 2,
      endpoints: [{ url: "ftp://weather.example/file" }, { path: "http://[bad" }, { url: `${ORIGIN}/ok` }],
    });
    expect(listed(reading)).toEqual([`GET ${ORIGIN}/ok`]);
    expect(reading.problems.map((p) => p.message)).toEqual([
      'not an http(s) URL or path: "ftp://weather.example/file"',
      'not an http(s) URL or path: "http://[bad"',
    ]);
  });

  it("when paths are relative without a slash, then they resolve at the origin's root, not under /.well-known", () => {
    const reading = read({ endpoints: [{ path: "weather" }, { path: "./v1/x" }] });
    expect(listed(reading)).toEqual([`GET ${ORIGIN}/weather`, `GET ${ORIGIN}/v1/x`]);
  });

  it("when a manifest has several list fields, then every one is read and the first names the family", () => {
    const reading = read({
      x402Version: 2,
      endpoints: [{ path: "/a" }],
      resources: [`${ORIGIN}/b`],
      routes: 7,
    });
    expect(reading.family).toBe("endpoints");
    expect(listed(reading)).toEqual([`GET ${ORIGIN}/a`, `GET ${ORIGIN}/b`]);
    expect(reading.problems).toEqual([
      expect.objectContaining({ where: "$.routes", message: "number, not a list" }),
    ]);
  });

  it("when the version is a numeric string, then it is read as the version", () => {
    expect(read({ x402Version: "2", endpoints: [] }).x402Version).toBe(2);
  });

  it("when the document lists nothing in a known field, then it is not a manifest and the keys are named", () => {
    expect(parseManifest({ x402Version: 2, payTo: PAY_TO }, MANIFEST)).toBe(
      "not a manifest: no list of paid resources in any known field (keys: x402Version, payTo)",
    );
    expect(parseManifest("hello", MANIFEST)).toBe("not a manifest: the document is string");
    expect(parseManifest(null, MANIFEST)).toBe("not a manifest: the document is null");
    expect(parseManifest({ endpoints: 5 }, MANIFEST)).toBe("not a manifest: endpoints is number, not a list");
  });

  it("when an item's accepts is not an array, then the item is listed without options and the reason kept", () => {
    const reading = read({ x402Version: 1, endpoints: [{ path: "/x", accepts: "exact" }] });
    expect(reading.resources[0]!.paymentOptions).toEqual([]);
    expect(reading.resources[0]!.warnings).toContain("accepts is not an array (string)");
  });
});
