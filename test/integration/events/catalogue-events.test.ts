import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";

/** The events a crawl of a fixture directory writes in the transactions of its changes. */
describe("catalogue events from directory crawls", () => {
  let database: TestDatabase;
  const site = new FixtureSite();
  let seen = 0n;

  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/services", miniListing(["alpha", "beta"]));
    for (const slug of ["alpha", "beta", "gamma"]) site.set(`/s/${slug}`, miniDetail(slug));
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });

  /** The events since the previous call, as "type name" lines (crawl events as "type status"). */
  async function newEvents(): Promise<string[]> {
    const rows = await database.db.event.findMany({ where: { seq: { gt: seen } }, orderBy: { seq: "asc" } });
    seen = rows.at(-1)?.seq ?? seen;
    return rows.map((row) => {
      const data = row.data as {
        service?: { name: string };
        endpoint?: { url: string };
        status?: string;
        changes?: { field: string; new: unknown }[];
      };
      if (row.type === "service.updated")
        return `${row.type} ${data.changes?.map((c) => `${c.field}=${c.new}`).join(",")}`;
      return `${row.type} ${data.service?.name ?? data.endpoint?.url ?? data.status}`;
    });
  }

  it("when a directory is crawled the first time, then each service is listed with its endpoint and the crawl completes", async () => {
    await crawlOnce(database.db, database.url, site.url("/services"));
    expect((await newEvents()).sort()).toEqual(
      [
        "service.listed alpha API",
        "service.listed beta API",
        "endpoint.added https://alpha.example/run",
        "endpoint.added https://beta.example/run",
        "crawl.completed completed",
      ].sort(),
    );
  });

  it("when it is crawled again unchanged, then only the crawl's completion is emitted", async () => {
    await crawlOnce(database.db, database.url, site.url("/services"));
    expect(await newEvents()).toEqual(["crawl.completed completed"]);
  });

  it("when a refresh renames one, drops one and adds one, then exactly those changes are emitted", async () => {
    site.set("/services", miniListing(["alpha", "gamma"]));
    site.set("/s/alpha", miniDetail("alpha").replace("<h1>alpha API</h1>", "<h1>Alpha Prime</h1>"));
    await crawlOnce(database.db, database.url, site.url("/services"));
    expect((await newEvents()).sort()).toEqual(
      [
        "service.updated name=Alpha Prime",
        "service.listed gamma API",
        "endpoint.added https://gamma.example/run",
        "service.delisted beta API",
        "crawl.completed completed",
      ].sort(),
    );
  });

  it("when a delisted service is back on the listing, then it is relisted", async () => {
    site.set("/services", miniListing(["alpha", "beta", "gamma"]));
    await crawlOnce(database.db, database.url, site.url("/services"));
    expect(await newEvents()).toEqual(["service.relisted beta API", "crawl.completed completed"]);
  });
});
