import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegisteredReindex } from "../../../src/registrations/reindex-schedule";
import { v2Item } from "../../fixtures/bazaar/feed-items";
import { issueKey } from "../../support/accounts";
import { createTestApp, type TestApp } from "../../support/app";
import { crawlFeedOnce, ran } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureFeed } from "../../support/fixture-feed";
import { FixtureOrigins } from "../../support/fixture-origins";
import { testLogger } from "../../support/logger";
import { connectMcp, type McpConnection } from "../../support/mcp";
import { testRegistrar } from "../../support/registrations";
import { officialV2Answers, SELLER_EVM } from "../../support/x402-official-servers";

const WELL_KNOWN = "/.well-known/x402";
const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/** A v2 manifest listing `paths` on `origin`, each at `amount` atomic units of USDC. */
function manifest(origin: string, paths: string[], amount = "10000") {
  return {
    x402Version: 2,
    resources: paths.map((path) => ({
      url: `${origin}${path}`,
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount,
          asset: BASE_SEPOLIA_USDC,
          payTo: SELLER_EVM,
          maxTimeoutSeconds: 60,
          extra: { name: "USDC", version: "2" },
        },
      ],
    })),
  };
}

interface ReindexJson {
  status: string;
  message: string | null;
  listed: { url: string }[];
  manifest: { outcome: string };
  registrations: { state: string }[];
}

/**
 * A registered origin re-indexed on demand and on the schedule: what its manifest drops is
 * delisted from its registered source only (a feed listing the same URL keeps it), a price change
 * is an event, and a manifest that cannot be read delists nothing. Then register_resource over MCP.
 */
describe("re-indexing registered origins", () => {
  let database: TestDatabase;
  let origins: FixtureOrigins;
  let feed: FixtureFeed;
  let api: TestApp;
  let key: string;
  const at = (host: string) => origins.origin(host);
  const shop = () => at("shop.example");
  const reindex = (origin: string, token = key) =>
    request(api.app)
      .post(`/v1/origins/${encodeURIComponent(origin)}/reindex`)
      .set("Authorization", `Bearer ${token}`);
  const shopUrls = async (kind: "registered" | "bazaar") => {
    const rows = await database.db.endpoint.findMany({
      where: { service: { status: "listed", source: { kind } }, url: { startsWith: shop() } },
      select: { url: true },
      orderBy: { url: "asc" },
    });
    return rows.map((row) => row.url.slice(shop().length));
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    origins = await new FixtureOrigins().start();
    feed = await new FixtureFeed().start();
    origins.serve("shop.example", WELL_KNOWN, { json: manifest(shop(), ["/a", "/b", "/c"]) });
    // A feed lists /c as well: the registered source's delisting must leave the feed's row alone.
    feed.items = [v2Item(`${shop()}/c`, { serviceName: "shop" })];
    ran(await crawlFeedOnce(database.db, database.url, feed.url));
    api = createTestApp(database, {
      registrar: testRegistrar(database, { reindexPerOriginPerHour: 3 }),
    });
    ({ key } = await issueKey(database.db, "seller", "live", ["catalogue:register"]));
    await request(api.app).post("/v1/registrations").send({ origin: shop() }).expect(201);
  });
  afterAll(async () => {
    await api?.close();
    await feed?.stop();
    await origins?.stop();
    await database?.drop();
  });

  it("when the manifest drops a resource, then only that resource leaves the registered source, and the feed still lists it", async () => {
    expect(await shopUrls("registered")).toEqual(["/a", "/b", "/c"]);
    origins.serve("shop.example", WELL_KNOWN, { json: manifest(shop(), ["/a", "/b", "/d"]) });
    const answer = await reindex(shop()).expect(200);
    const body = answer.body as ReindexJson;
    expect(body).toMatchObject({ status: "completed", manifest: { outcome: "read" } });
    expect(body.listed.map((l) => l.url)).toEqual([`${shop()}/a`, `${shop()}/b`, `${shop()}/d`]);
    expect(await shopUrls("registered")).toEqual(["/a", "/b", "/d"]);
    expect(await shopUrls("bazaar")).toEqual(["/c"]);
    const removed = await database.db.event.findMany({ where: { type: "endpoint.removed" } });
    expect(removed.map((e) => (e.data as { endpoint: { url: string } }).endpoint.url)).toEqual([
      `${shop()}/c`,
    ]);
    const added = await database.db.event.findMany({ where: { type: "endpoint.added" } });
    expect(added.map((e) => (e.data as { endpoint: { url: string } }).endpoint.url)).toContain(`${shop()}/d`);
  });

  it("when the manifest changes a price, then the re-index emits endpoint.price_changed", async () => {
    origins.serve("shop.example", WELL_KNOWN, { json: manifest(shop(), ["/a", "/b", "/d"], "20000") });
    await reindex(shop()).expect(200);
    const changed = await database.db.event.findMany({ where: { type: "endpoint.price_changed" } });
    expect(changed.map((e) => (e.data as { endpoint: { url: string } }).endpoint.url).sort()).toEqual([
      `${shop()}/a`,
      `${shop()}/b`,
      `${shop()}/d`,
    ]);
  });

  it("when the manifest cannot be read, then the re-index fails and delists nothing", async () => {
    origins.serve("shop.example", WELL_KNOWN, { status: 500, body: "upstream down" });
    const answer = await reindex(shop()).expect(200);
    const body = answer.body as ReindexJson;
    expect(body.status).toBe("failed");
    expect(body.message).toMatch(/the manifest could not be read \(HTTP 500\); nothing was delisted/);
    expect(body.registrations).toEqual([expect.objectContaining({ state: "listed" })]);
    expect(await shopUrls("registered")).toEqual(["/a", "/b", "/d"]);
  });

  it("when an origin is re-indexed more often than its hourly limit, or without the right key, then it is refused", async () => {
    const refused = await reindex(shop()).expect(429);
    expect(refused.body.message).toMatch(/at most 3 times an hour/);
    await request(api.app)
      .post(`/v1/origins/${encodeURIComponent(shop())}/reindex`)
      .expect(401);
    const { key: reader } = await issueKey(database.db, "reader", "live", ["catalogue:read"]);
    await reindex(shop(), reader).expect(403);
    const unknown = await reindex(at("nobody.example")).expect(404);
    expect(unknown.body.message).toMatch(/is not registered/);
    await reindex("not an origin/x").expect(400);
  });

  it("when registered origins are due, then the schedule re-indexes them", async () => {
    origins.serve("shop.example", WELL_KNOWN, { json: manifest(shop(), ["/a", "/b"]) });
    const source = await database.db.source.findFirstOrThrow({
      where: { kind: "registered", baseUrl: shop() },
    });
    const registrar = testRegistrar(database)(api.pool);
    const schedule = startRegisteredReindex(registrar.deps, 1_000, testLogger);
    try {
      await expect
        .poll(
          () =>
            database.db.crawlRun.count({
              where: { sourceId: source.id, trigger: "schedule", status: "completed" },
            }),
          {
            timeout: 20_000,
          },
        )
        .toBeGreaterThan(0);
    } finally {
      await schedule.stop();
    }
    expect(await shopUrls("registered")).toEqual(["/a", "/b"]);
  });

  describe("the MCP tool register_resource", () => {
    let mcp: McpConnection;
    beforeAll(async () => {
      const [answer] = await officialV2Answers({
        "GET /tool": {
          accepts: { scheme: "exact", price: "$0.05", network: "eip155:84532", payTo: SELLER_EVM },
        },
      });
      origins.serve("agentic.example", "/tool", {
        status: answer!.status,
        headers: answer!.headers,
        body: String(answer!.body ?? ""),
      });
      mcp = await connectMcp(api.app, "registration-test");
    });
    afterAll(async () => {
      await mcp?.close();
    });

    it("when an agent registers a paying URL, then the tool answers the listed registration", async () => {
      const url = `${at("agentic.example")}/tool`;
      const result = await mcp.client.callTool({ name: "register_resource", arguments: { url } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        kind: "url",
        state: "listed",
        listed: [{ method: "GET", url }],
      });
    });

    it("when an agent registers a URL without a challenge, then the tool answers an error with the probe's reason", async () => {
      const result = await mcp.client.callTool({
        name: "register_resource",
        arguments: { url: `${at("agentic.example")}/nothing` },
      });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(
        /^Not listed: GET .*\/nothing answered HTTP 404/,
      );
    });
  });
});
