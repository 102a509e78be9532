import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v1Item, v2Item } from "../../fixtures/bazaar/feed-items";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce } from "../../support/crawl";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { probeNow } from "../../support/probe";
import { v1ChallengeBody, v2ChallengeHeader } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";
import { v1Entry, v2Entry } from "../../unit/payments/fixtures";

interface Verdict {
  payable: boolean;
  decided_by: string | null;
  reasons: string[];
}

/**
 * A feed lists six endpoints of one seller (all payable as listed but one); the seller's own 402
 * answers speak every dialect: a v1 JSON body, a v2 header with an empty body, v2 fields in the
 * body, an empty body without header, and a v1 body naming its asset "USDC".
 */
describe("payability verdicts through the feed, the probes and the API", () => {
  let database: TestDatabase;
  let api: TestApp;
  let feed: FixtureFeed;
  let seller: X402Fixture;
  let serviceId: string;
  let byPath: Map<string, Verdict>;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    seller = await new X402Fixture().start();
    seller
      .set("/v1-body", { status: 402, body: v1ChallengeBody() })
      .set("/v2-header", {
        status: 402,
        headers: { "PAYMENT-REQUIRED": v2ChallengeHeader(seller.url("/v2-header")) },
        body: "",
      })
      .set("/v2-body", {
        status: 402,
        body: JSON.stringify({ x402Version: 2, accepts: [v2Entry({ network: "base" })] }),
      })
      .set("/empty", { status: 402, body: "" })
      .set("/symbol", { status: 402, body: v1ChallengeBody([v1Entry({ asset: "USDC" })]) });
    feed = await new FixtureFeed().start();
    feed.items = [
      v1Item(seller.url("/v1-body")),
      v2Item(seller.url("/v2-header")),
      v2Item(seller.url("/v2-body")),
      v2Item(seller.url("/empty")),
      v2Item(seller.url("/symbol")),
      v2Item(seller.url("/listed-only"), { amount: "$0.01" }),
    ];
    await crawlFeedOnce(database.db, database.url, feed.url);

    const endpoints = await database.db.endpoint.findMany({
      where: { url: { not: { endsWith: "/listed-only" } } },
    });
    await probeNow(
      database.db,
      endpoints.map((e) => e.id),
    );

    const list = await request(api.app).get("/v1/services");
    serviceId = list.body.items[0].id;
    const detail = await request(api.app).get(`/v1/services/${serviceId}`);
    expect(detail.status).toBe(200);
    byPath = new Map(
      detail.body.endpoints.map((e: { url: string; payability: Verdict }) => [
        new URL(e.url).pathname,
        e.payability,
      ]),
    );
  });
  afterAll(async () => {
    await api.close();
    await feed.stop();
    await seller.stop();
    await database.drop();
  });

  it("when the live challenge is a v1 body or a v2 header with an empty body, then it decides payable", () => {
    expect(byPath.get("/v1-body")).toEqual({ payable: true, decided_by: "live_challenge", reasons: [] });
    expect(byPath.get("/v2-header")).toEqual({ payable: true, decided_by: "live_challenge", reasons: [] });
  });

  it("when the live challenge contradicts a payable listing, then the challenge wins, with its reasons", () => {
    expect(byPath.get("/v2-body")).toEqual({
      payable: false,
      decided_by: "live_challenge",
      reasons: [expect.stringMatching(/^base: network "base" is a v1 name in a v2 entry/)],
    });
    expect(byPath.get("/symbol")).toEqual({
      payable: false,
      decided_by: "live_challenge",
      reasons: [expect.stringMatching(/^base: asset "USDC" is not a token contract address/)],
    });
    expect(byPath.get("/empty")).toEqual({
      payable: false,
      decided_by: "live_challenge",
      reasons: ["the live 402 answer carries no payment requirements an x402 client can read"],
    });
  });

  it("when only the feed publishes requirements, then the feed decides, and each option says why", async () => {
    expect(byPath.get("/listed-only")).toEqual({
      payable: false,
      decided_by: "feed",
      reasons: [expect.stringMatching(/amount "\$0.01" is not an atomic integer amount/)],
    });
    const detail = await request(api.app).get(`/v1/services/${serviceId}`);
    const listedOnly = detail.body.endpoints.find((e: { url: string }) => e.url.endsWith("/listed-only"));
    expect(listedOnly.payment_options).toEqual([
      expect.objectContaining({ origin: "listing", payable: false, unpayable_reasons: [expect.any(String)] }),
    ]);
  });

  it("when endpoints are searched with payable=true or false, then only those come, with their verdict", async () => {
    const payable = await request(api.app).get("/v1/endpoints?payable=true");
    expect(payable.status).toBe(200);
    expect(payable.body.items.map((e: { url: string }) => new URL(e.url).pathname).sort()).toEqual([
      "/v1-body",
      "/v2-header",
    ]);
    expect(payable.body.items[0].payability).toEqual({
      payable: true,
      decided_by: "live_challenge",
      reasons: [],
    });
    const unpayable = await request(api.app).get("/v1/endpoints?payable=false");
    expect(unpayable.body.total).toBe(4);
    const bad = await request(api.app).get("/v1/endpoints?payable=yes");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/payable/);
  });

  it("when services are exported, then each row counts its payable endpoints", async () => {
    const response = await request(api.app).get("/v1/services.csv");
    const [header, row] = parseCsv(response.text);
    expect(row?.[header?.indexOf("payable_endpoints") ?? -1]).toBe("2");
  });
});
