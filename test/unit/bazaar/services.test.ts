import { describe, expect, it } from "vitest";
import type { PaymentOption } from "../../../src/payments/types";
import { bazaarFingerprint } from "../../../src/sources/bazaar/fingerprint";
import { groupIntoServices } from "../../../src/sources/bazaar/services";
import type { BazaarResource } from "../../../src/sources/bazaar/types";

function option(price: string): PaymentOption {
  return {
    scheme: "exact",
    network: "eip155:8453",
    network_name: "base",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    asset_symbol: "USDC",
    amount_atomic: String(Number(price) * 1e6),
    price_usdc: price,
    pay_to: "0xabc",
    max_timeout_seconds: 60,
    warnings: [],
    payable: true,
    unpayable_reasons: [],
  };
}

function resource(url: string, overrides: Partial<BazaarResource> = {}): BazaarResource {
  const parsed = new URL(url);
  return {
    resourceUrl: parsed.href,
    origin: parsed.origin,
    host: parsed.hostname,
    method: "GET",
    description: null,
    serviceName: null,
    iconUrl: null,
    tags: [],
    lastUpdated: null,
    totalCalls30d: null,
    uniquePayers30d: null,
    lastCalledAt: null,
    paymentOptions: [option("0.01")],
    call: null,
    warnings: [],
    ...overrides,
  };
}

describe("groupIntoServices", () => {
  it("when resources share an origin, then they are one service with one endpoint each, in URL order", () => {
    const [service, ...rest] = groupIntoServices([
      resource("https://api.a.example/v1/z", { description: "Zed" }),
      resource("https://api.a.example/v1/b", { method: "POST", description: "Bee", serviceName: "A API" }),
    ]);
    expect(rest).toEqual([]);
    expect(service?.detailUrl).toBe("https://api.a.example");
    expect(service?.service).toMatchObject({ name: "A API", domain: "api.a.example", description: "Bee" });
    expect(service?.service.endpoints).toEqual([
      {
        method: "POST",
        url: "https://api.a.example/v1/b",
        description: "Bee",
        call: null,
        selfReported: {
          service_name: "A API",
          tags: [],
          icon_url: null,
          quality: { total_calls_30d: null, unique_payers_30d: null, last_called_at: null },
        },
      },
      {
        method: "GET",
        url: "https://api.a.example/v1/z",
        description: "Zed",
        call: null,
        selfReported: null,
      },
    ]);
  });

  it("when ports or schemes differ, then they are different services of the same domain", () => {
    const services = groupIntoServices([
      resource("https://a.example/x"),
      resource("https://a.example:8443/x"),
      resource("http://a.example/x"),
    ]);
    expect(services.map((s) => [s.detailUrl, s.service.domain])).toEqual([
      ["http://a.example", "a.example"],
      ["https://a.example", "a.example"],
      ["https://a.example:8443", "a.example"],
    ]);
  });

  it("when no item names the service, then the host is its name", () => {
    expect(groupIntoServices([resource("https://b.example/x")])[0]?.service.name).toBe("b.example");
  });

  it("when the same resource is listed twice, then it is one endpoint offering both sets of options once", () => {
    const [service] = groupIntoServices([
      resource("https://c.example/x", { paymentOptions: [option("0.01")] }),
      resource("https://c.example/x", {
        description: "second",
        paymentOptions: [option("0.01"), option("0.02")],
      }),
    ]);
    expect(service?.service.endpoints).toHaveLength(1);
    expect(service?.service.endpoints[0]?.description).toBe("second");
    expect(service?.paymentOptions).toEqual([[option("0.01"), option("0.02")]]);
  });

  it("when endpoints report quality, then calls add up and payers take the largest endpoint's count", () => {
    const [service] = groupIntoServices([
      resource("https://d.example/a", { totalCalls30d: 10, uniquePayers30d: 4 }),
      resource("https://d.example/b", { totalCalls30d: 5, uniquePayers30d: 6 }),
      resource("https://d.example/c"),
    ]);
    expect(service?.service.stats).toMatchObject({ txCount30d: 15, payerCount30d: 6, uptime30d: null });
  });

  it("when no endpoint reports quality, then the figures are unknown, not zero", () => {
    const [service] = groupIntoServices([resource("https://d.example/a")]);
    expect(service?.service.stats).toMatchObject({
      txCount30d: null,
      payerCount30d: null,
      infoUpdatedAt: null,
    });
  });

  it("when the summed calls do not fit the column, then they are dropped with a warning", () => {
    const [service] = groupIntoServices([
      resource("https://e.example/a", { totalCalls30d: 2_000_000_000 }),
      resource("https://e.example/b", { totalCalls30d: 2_000_000_000 }),
    ]);
    expect(service?.service.stats.txCount30d).toBeNull();
    expect(service?.warnings).toEqual([
      { url: "https://e.example", message: expect.stringMatching(/larger than the catalogue can store/) },
    ]);
  });

  it("when items were updated at different times, then the newest is the service's", () => {
    const [service] = groupIntoServices([
      resource("https://f.example/a", { lastUpdated: new Date("2025-10-01T00:00:00Z") }),
      resource("https://f.example/b", { lastUpdated: new Date("2025-10-05T00:00:00Z") }),
    ]);
    expect(service?.service.stats.infoUpdatedAt?.toISOString()).toBe("2025-10-05T00:00:00.000Z");
  });

  it("when items carry tags, then the service has their union, normalised and sorted", () => {
    const [service] = groupIntoServices([
      resource("https://g.example/a", { tags: ["search", "#ai"] }),
      resource("https://g.example/b", { tags: ["ai", "data"] }),
    ]);
    expect(service?.service.tags).toEqual(["ai", "data", "search"]);
  });

  it("when an item has warnings, then they are kept with the resource they came from", () => {
    const [service] = groupIntoServices([
      resource("https://h.example/a", { warnings: ["type is not http: mcp"] }),
    ]);
    expect(service?.warnings).toEqual([{ url: "https://h.example/a", message: "type is not http: mcp" }]);
  });
});

describe("bazaarFingerprint", () => {
  const items = [resource("https://i.example/a"), resource("https://i.example/b", { totalCalls30d: 3 })];

  it("when the feed lists the same items in another order, then the fingerprint is the same", () => {
    const [forward] = groupIntoServices(items);
    const [backward] = groupIntoServices([...items].reverse());
    expect(bazaarFingerprint(forward!)).toBe(bazaarFingerprint(backward!));
  });

  it("when only a price changes, then the fingerprint changes", () => {
    const [before] = groupIntoServices(items);
    const [after] = groupIntoServices([items[0]!, { ...items[1]!, paymentOptions: [option("0.05")] }]);
    expect(bazaarFingerprint(after!)).not.toBe(bazaarFingerprint(before!));
  });
});
