import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PAY_TO, v1Item, v2Item } from "../../fixtures/bazaar/feed-items";
import { crawlFeedOnce, ran } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";

/**
 * Eight items over three pages of three: v1 and v2 items, two malformed ones, non-standard
 * values, and lastUpdated as Unix seconds (alpha), milliseconds (beta) and ISO (gamma).
 */
function standardItems(): unknown[] {
  return [
    v2Item("https://alpha.example/v1/quote", {
      serviceName: "Alpha Quotes",
      description: "A quote",
      tags: ["Finance", "#quotes"],
      lastUpdated: 1761000000,
      quality: { l30DaysTotalCalls: 100, l30DaysUniquePayers: 7 },
    }),
    v1Item("https://alpha.example/v1/history", {
      quality: { l30DaysTotalCalls: 50, l30DaysUniquePayers: 9 },
    }),
    { resource: 42, type: "http" },
    v2Item("https://beta.example/run", {
      network: "Base",
      amount: "$0.01",
      lastUpdated: 1761100000000,
      method: "post",
    }),
    { resource: "ftp://files.example/report", type: "http", accepts: [] },
    v1Item("https://gamma.example/a", { lastUpdated: "2025-10-23T08:00:00.000Z" }),
    v2Item("https://gamma.example/b"),
    v2Item("https://delta.example/x"),
  ];
}

describe("crawling a Bazaar discovery feed", () => {
  let database: TestDatabase;
  let feed: FixtureFeed;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    feed = await new FixtureFeed().start();
    feed.items = standardItems();
    // Every test starts from an empty catalogue, so each one reads on its own.
    await database.db.source.deleteMany();
  });
  afterEach(() => feed.stop());

  const crawl = (feedOverrides = {}, settings = {}) =>
    crawlFeedOnce(database.db, database.url, feed.url, feedOverrides, settings).then(ran);
  const service = (origin: string) =>
    database.db.service.findFirstOrThrow({
      where: { detailUrl: origin },
      include: { endpoints: { orderBy: { position: "asc" }, include: { paymentOptions: true } }, tags: true },
    });

  it("when the feed spans several pages, then every page is read and items become services by origin", async () => {
    const outcome = await crawl();
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { pagesFetched: 3, pagesFailed: 0, servicesSeen: 4, servicesNew: 4, listingComplete: true },
    });
    expect(feed.offsetsRequested()).toEqual([0, 3, 6]);
    expect(feed.requests.every((r) => r.query.includes("limit=3"))).toBe(true);
    expect(feed.requests.every((r) => r.userAgent === "x402-catalogue-test/1.0")).toBe(true);

    const alpha = await service("https://alpha.example");
    expect(alpha).toMatchObject({
      name: "Alpha Quotes",
      domain: "alpha.example",
      // The first endpoint's description, in URL order (feed order changes between walks).
      description: "v1 resource /v1/history",
      status: "listed",
      txCount30d: 150,
      payerCount30d: 9,
    });
    expect(alpha.endpoints.map((e) => [e.method, e.url, e.description])).toEqual([
      ["GET", "https://alpha.example/v1/history", "v1 resource /v1/history"],
      ["GET", "https://alpha.example/v1/quote", "A quote"],
    ]);
    expect(alpha.tags.map((t) => t.tag).sort()).toEqual(["finance", "quotes"]);
    const delta = await service("https://delta.example");
    expect(delta).toMatchObject({ name: "delta.example", txCount30d: null, infoUpdatedAt: null });
  });

  it("when lastUpdated comes as seconds, milliseconds or ISO text, then each is read as the same kind of date", async () => {
    await crawl();
    expect((await service("https://alpha.example")).infoUpdatedAt?.toISOString()).toBe(
      "2025-10-20T22:40:00.000Z",
    );
    expect((await service("https://beta.example")).infoUpdatedAt?.toISOString()).toBe(
      "2025-10-22T02:26:40.000Z",
    );
    expect((await service("https://gamma.example")).infoUpdatedAt?.toISOString()).toBe(
      "2025-10-23T08:00:00.000Z",
    );
  });

  it("when items carry payment requirements, then they are stored as listing options of the feed, v1 and v2 alike", async () => {
    await crawl();
    const source = await database.db.source.findFirstOrThrow({ where: { kind: "bazaar" } });
    const [history, quote] = (await service("https://alpha.example")).endpoints;
    expect(quote?.paymentOptions).toEqual([
      expect.objectContaining({
        origin: "listing",
        sourceId: source.id,
        position: 0,
        scheme: "exact",
        network: "eip155:8453",
        networkName: "base",
        assetSymbol: "USDC",
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        warnings: [],
      }),
    ]);
    expect(quote?.paymentOptions[0]?.amountAtomic?.toFixed()).toBe("2500");
    expect(quote?.paymentOptions[0]?.priceUsdc?.toFixed()).toBe("0.0025");
    expect(history?.paymentOptions[0]).toMatchObject({ network: "eip155:8453", networkName: "base" });
    expect(history?.paymentOptions[0]?.priceUsdc?.toFixed()).toBe("0.01");
  });

  it("when values break the spec, then they are kept with warnings instead of dropped", async () => {
    await crawl();
    const [run] = (await service("https://beta.example")).endpoints;
    expect(run).toMatchObject({ method: "POST", url: "https://beta.example/run" });
    const option = run?.paymentOptions[0];
    expect(option).toMatchObject({ network: "eip155:8453", networkName: "base" });
    expect(option?.priceUsdc?.toFixed()).toBe("0.01");
    expect(option?.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("network is not a standard x402 name: Base"),
        expect.stringContaining("amount is not an atomic integer: $0.01"),
      ]),
    );
  });

  it("when items are malformed, then each is recorded with its page and the rest of the page is still read", async () => {
    const outcome = await crawl();
    const errors = await database.db.crawlError.findMany({
      where: { crawlRunId: outcome.runId, kind: "value" },
    });
    const malformed = errors.filter((e) => e.field?.startsWith("items["));
    expect(malformed.map((e) => [new URL(e.url).searchParams.get("offset"), e.field, e.rawText])).toEqual([
      ["0", "items[2]", '{"resource":42,"type":"http"}'],
      ["3", "items[1]", '{"resource":"ftp://files.example/report","type":"http","accepts":[]}'],
    ]);
    expect(malformed[1]?.message).toMatch(/not http/);
    expect(outcome.counts.valueProblems).toBe(errors.length);
    // beta and gamma/a sat on the same pages as the malformed items.
    expect(await database.db.service.count({ where: { status: "listed" } })).toBe(4);
  });

  it("when the feed is walked again unchanged, then nothing new is written", async () => {
    await crawl();
    const before = {
      snapshots: await database.db.statsSnapshot.count(),
      options: await database.db.paymentOption.findMany({ select: { id: true }, orderBy: { id: "asc" } }),
      endpoints: await database.db.endpoint.findMany({ select: { id: true }, orderBy: { id: "asc" } }),
    };
    const again = await crawl();
    expect(again).toMatchObject({
      status: "completed",
      counts: { servicesNew: 0, servicesUpdated: 0, servicesUnchanged: 4, servicesDelisted: 0 },
    });
    expect(await database.db.statsSnapshot.count()).toBe(before.snapshots);
    expect(
      await database.db.paymentOption.findMany({ select: { id: true }, orderBy: { id: "asc" } }),
    ).toEqual(before.options);
    expect(await database.db.endpoint.findMany({ select: { id: true }, orderBy: { id: "asc" } })).toEqual(
      before.endpoints,
    );
  });

  it("when a price changes, then only that service is rewritten, with its new options", async () => {
    await crawl();
    feed.items[7] = v2Item("https://delta.example/x", { amount: "5000" });
    const again = await crawl();
    expect(again.counts).toMatchObject({ servicesUpdated: 1, servicesUnchanged: 3 });
    const [x] = (await service("https://delta.example")).endpoints;
    expect(x?.paymentOptions.map((o) => o.priceUsdc?.toFixed())).toEqual(["0.005"]);
  });

  it("when a page answers 503 once, then it is retried and the walk completes", async () => {
    feed.faults.set(3, { status: 503, times: 1 });
    const outcome = await crawl();
    expect(outcome).toMatchObject({ status: "completed", counts: { pagesFailed: 0 } });
    expect(feed.offsetsRequested()).toEqual([0, 3, 3, 6]);
  });

  it("when a page answers 429 with Retry-After, then it is asked again after that wait", async () => {
    feed.faults.set(6, { status: 429, times: 1, headers: { "retry-after": "1" } });
    const started = Date.now();
    const outcome = await crawl();
    expect(outcome.status).toBe("completed");
    expect(feed.offsetsRequested()).toEqual([0, 3, 6, 6]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("when page 2 keeps failing, then the run is partial, nothing is delisted and partly seen services keep their endpoints", async () => {
    await crawl();
    feed.faults.set(3, { status: 500, times: Number.POSITIVE_INFINITY });
    const outcome = await crawl({}, { maxRetries: 1 });
    expect(outcome).toMatchObject({
      status: "partial",
      counts: { pagesFetched: 2, pagesFailed: 1, servicesDelisted: 0, listingComplete: false },
    });
    expect(outcome.message).toMatch(/nothing was delisted/);
    expect(await database.db.service.count({ where: { status: "listed" } })).toBe(4);
    // gamma/a sat on the failed page: gamma is left as stored rather than cut down to gamma/b.
    expect((await service("https://gamma.example")).endpoints.map((e) => e.url)).toEqual([
      "https://gamma.example/a",
      "https://gamma.example/b",
    ]);
    const fetchErrors = await database.db.crawlError.findMany({
      where: { crawlRunId: outcome.runId, kind: "fetch" },
    });
    expect(fetchErrors).toEqual([expect.objectContaining({ statusCode: 500 })]);
    expect(new URL(fetchErrors[0]!.url).searchParams.get("offset")).toBe("3");
  });

  it("when a complete walk no longer shows an item, then its service is delisted and a vanished endpoint removed", async () => {
    await crawl();
    feed.items = standardItems().filter((_, index) => index !== 6 && index !== 7); // gamma/b and delta
    const outcome = await crawl();
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesDelisted: 1, servicesUpdated: 1 },
    });
    expect((await service("https://delta.example")).status).toBe("delisted");
    expect((await service("https://gamma.example")).endpoints.map((e) => e.url)).toEqual([
      "https://gamma.example/a",
    ]);

    feed.items = standardItems();
    const back = await crawl();
    expect(back.counts).toMatchObject({ servicesUpdated: 2, servicesDelisted: 0 });
    expect((await service("https://delta.example")).status).toBe("listed");
  });

  it("when the feed cannot be reached, then the run fails and nothing is delisted", async () => {
    await crawl();
    await feed.stop();
    const outcome = await crawl({}, { maxRetries: 1 });
    expect(outcome).toMatchObject({
      status: "failed",
      counts: { servicesDelisted: 0, listingComplete: false },
    });
    expect(outcome.message).toMatch(/the feed could not be read: network error/);
    expect(await database.db.service.count({ where: { status: "listed" } })).toBe(4);
  });

  it("when the feed lists nothing usable, then the run fails rather than delisting everything", async () => {
    await crawl();
    feed.items = [{ resource: 42 }];
    const outcome = await crawl();
    expect(outcome).toMatchObject({ status: "failed", counts: { servicesDelisted: 0 } });
    expect(await database.db.service.count({ where: { status: "listed" } })).toBe(4);
  });
  it("when an item's text holds control characters, then they are removed and the service is stored and counted", async () => {
    feed.items = [
      v2Item("https://nul.example/q", {
        serviceName: "Nul\u0000 Quotes\u0007",
        description: "Quotes\u0000\tdaily",
        tags: ["fin\u0000ance"],
      }),
    ];
    const outcome = await crawl();
    expect(outcome.counts).toMatchObject({ servicesNew: 1 });
    const stored = await service("https://nul.example");
    expect(stored).toMatchObject({ name: "Nul Quotes", description: "Quotes\tdaily" });
    expect(stored.tags.map((tag) => tag.tag)).toEqual(["finance"]);
  });

  it("when a service cannot be stored, then the run records the error and does not count it as new", async () => {
    const unstorable = v2Item("https://bad.example/q");
    (unstorable.metadata as Record<string, unknown>).input = {
      type: "http",
      method: "GET",
      queryParams: { q: { type: "string", description: "text\u0000" } },
    };
    feed.items = [v2Item("https://good.example/q"), unstorable];
    const outcome = await crawl();
    const errors = await database.db.crawlError.findMany({
      where: { crawlRunId: outcome.runId, kind: "store" },
    });
    expect(errors.map((error) => error.url)).toEqual(["https://bad.example"]);
    expect(outcome.counts).toMatchObject({ servicesNew: 1 });
  });
});
