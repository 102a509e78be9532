import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";

describe("crawling a directory with faults", () => {
  let database: TestDatabase;
  let site: FixtureSite;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    site = await new FixtureSite().start();
  });
  afterEach(() => site.stop());

  async function errorsOf(runId: string) {
    return database.db.crawlError.findMany({ where: { crawlRunId: runId }, orderBy: { id: "asc" } });
  }

  it("when pages answer 503 at first, then they are retried and the crawl completes", async () => {
    site.set("/dir", { body: miniListing(["flaky"]), failFirst: { times: 1, status: 503 } });
    site.set("/s/flaky", { body: miniDetail("flaky"), failFirst: { times: 2, status: 503 } });
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(outcome).toMatchObject({ status: "completed", counts: { servicesNew: 1, pagesFailed: 0 } });
    expect(site.countRequests("/s/flaky")).toBe(3);
  });

  it("when a detail page has vanished (404), then it is recorded, skipped, and the service still listed", async () => {
    site.set("/dir", miniListing(["here", "gone"]));
    site.set("/s/here", miniDetail("here"));
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    if (outcome.status === "skipped") throw new Error("unexpected skip");
    expect(outcome).toMatchObject({ status: "completed", counts: { servicesSeen: 2, pagesFailed: 1 } });
    const errors = await errorsOf(outcome.runId);
    expect(errors).toEqual([
      expect.objectContaining({ kind: "fetch", statusCode: 404, url: site.url("/s/gone") }),
    ]);
    expect(site.countRequests("/s/gone")).toBe(1); // a 404 is not retried
    const gone = await database.db.service.findFirstOrThrow({ where: { detailUrl: site.url("/s/gone") } });
    expect(gone).toMatchObject({ name: "gone API", domain: "gone.example", status: "listed" });
  });

  it("when a known page answers 503 on revalidation, then it is retried through the detail route", async () => {
    site.set("/dir", miniListing(["flaky", "steady"]));
    site.set("/s/flaky", miniDetail("flaky")).set("/s/steady", miniDetail("steady"));
    await crawlOnce(database.db, database.url, site.url("/dir"));
    // The first crawl was attempt 1; the revalidation and the detail route's first try fail.
    site.set("/s/flaky", { body: miniDetail("flaky"), failFirst: { times: 3, status: 503 } });
    site.resetLog();
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesUnchanged: 2, pagesFailed: 0, pagesUnchanged: 3 },
    });
    expect(site.countRequests("/s/flaky")).toBe(3);
    expect(site.requests.filter((r) => r.path === "/s/steady").map((r) => r.status)).toEqual([304]);
  });

  it("when a known page has vanished on a re-crawl (404), then it is recorded and the service stays listed", async () => {
    site.set("/dir", miniListing(["here", "gone"]));
    site.set("/s/here", miniDetail("here")).set("/s/gone", miniDetail("gone"));
    await crawlOnce(database.db, database.url, site.url("/dir"));
    site.delete("/s/gone");
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    if (outcome.status === "skipped") throw new Error("unexpected skip");
    expect(outcome).toMatchObject({ status: "completed", counts: { servicesUnchanged: 1, pagesFailed: 1 } });
    expect(await errorsOf(outcome.runId)).toEqual([
      expect.objectContaining({ kind: "fetch", statusCode: 404, url: site.url("/s/gone") }),
    ]);
    const gone = await database.db.service.findFirstOrThrow({ where: { detailUrl: site.url("/s/gone") } });
    expect(gone.status).toBe("listed");
  });

  it("when robots.txt comes to disallow a known page, then a re-crawl does not fetch it", async () => {
    site.set("/dir", miniListing(["open", "secret"]));
    site.set("/s/open", miniDetail("open")).set("/s/secret", miniDetail("secret"));
    await crawlOnce(database.db, database.url, site.url("/dir"));
    site.set("/robots.txt", { body: "User-agent: *\nDisallow: /s/secret\n", contentType: "text/plain" });
    site.resetLog();
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    if (outcome.status === "skipped") throw new Error("unexpected skip");
    expect(site.countRequests("/s/secret")).toBe(0);
    expect(site.requests.filter((r) => r.path === "/s/open").map((r) => r.status)).toEqual([304]);
    expect(await errorsOf(outcome.runId)).toEqual([
      expect.objectContaining({ kind: "robots", url: site.url("/s/secret") }),
    ]);
  });

  it("when the listing cannot be read at all, then the run fails and nothing is delisted", async () => {
    site.set("/dir", miniListing(["kept"]));
    site.set("/s/kept", miniDetail("kept"));
    await crawlOnce(database.db, database.url, site.url("/dir"));
    site.set("/dir", { body: "down", status: 500 });
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(outcome).toMatchObject({
      status: "failed",
      counts: { servicesDelisted: 0, listingComplete: false },
    });
    const kept = await database.db.service.findFirstOrThrow({ where: { detailUrl: site.url("/s/kept") } });
    expect(kept.status).toBe("listed");
  });

  it("when one listing page fails, then the run is partial and nothing is delisted", async () => {
    const pager = `<p><a href="/dir">1</a> <a href="/dir?page=2">2</a></p>`;
    site.set("/dir", miniListing(["one"], pager));
    site.set("/dir?page=2", miniListing(["two"], pager));
    site.set("/s/one", miniDetail("one")).set("/s/two", miniDetail("two"));
    await crawlOnce(database.db, database.url, site.url("/dir"));
    site.set("/dir?page=2", { body: "oops", status: 502 });
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(outcome).toMatchObject({ status: "partial", counts: { servicesDelisted: 0 } });
    const two = await database.db.service.findFirstOrThrow({ where: { detailUrl: site.url("/s/two") } });
    expect(two.status).toBe("listed");
  });

  it("when a guessed URL of a listing page already read fails, then the listing is still complete", async () => {
    // Page 2 shows no pager at all: its URL pattern makes the extractor guess /dir?page=1, which
    // this site does not serve, but page 1 was read as /dir.
    site.set("/dir", miniListing(["p1"], `<a rel="next" href="/dir?page=2">Next</a>`));
    site.set("/dir?page=2", miniListing(["p2"]));
    site.set("/s/p1", miniDetail("p1")).set("/s/p2", miniDetail("p2"));
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(site.countRequests("/dir?page=1")).toBe(1);
    expect(outcome).toMatchObject({
      status: "completed",
      counts: { servicesSeen: 2, listingComplete: true },
    });
  });

  it("when a page is slower than the timeout, then it is retried and finally recorded as failed", async () => {
    site.set("/dir", miniListing(["slow", "fast"]));
    site.set("/s/slow", { body: miniDetail("slow"), delayMs: 2_500 });
    site.set("/s/fast", miniDetail("fast"));
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"), {
      requestTimeoutSeconds: 1,
      maxRetries: 1,
    });
    if (outcome.status === "skipped") throw new Error("unexpected skip");
    expect(outcome).toMatchObject({ status: "completed", counts: { pagesFailed: 1 } });
    const errors = await errorsOf(outcome.runId);
    expect(errors[0]?.message).toMatch(/timed out/);
    expect(site.countRequests("/s/slow")).toBe(2);
  });

  it("when a detail link serves something other than HTML, or too much, then it is rejected without retry", async () => {
    site.set("/dir", miniListing(["pdf", "huge", "ok"]));
    site.set("/s/pdf", { body: "%PDF-1.4", contentType: "application/pdf" });
    site.set("/s/huge", miniDetail("huge") + " ".repeat(50_000));
    site.set("/s/ok", miniDetail("ok"));
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"), { maxPageBytes: 20_000 });
    if (outcome.status === "skipped") throw new Error("unexpected skip");
    const messages = (await errorsOf(outcome.runId)).map((e) => e.message).join("\n");
    expect(messages).toMatch(/not an HTML page \(Content-Type: application\/pdf\)/);
    expect(messages).toMatch(/page too large/);
    expect(site.countRequests("/s/pdf")).toBe(1);
    expect(site.countRequests("/s/huge")).toBe(1);
  });

  it("when the site links pages in a loop and repeats services, then each page and service is taken once", async () => {
    const pager = `<p><a href="/dir?page=1">1</a> <a href="/dir?page=2">2</a> <a href="/dir?page=2#top">next</a></p>`;
    site.set("/dir", miniListing(["a", "b"], pager));
    site.set("/dir?page=1", miniListing(["a", "b"], pager));
    site.set("/dir?page=2", miniListing(["b", "c"], `${pager}<a href="/s/a?utm_source=x">a again</a>`));
    for (const slug of ["a", "b", "c"]) site.set(`/s/${slug}`, miniDetail(slug));
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(outcome).toMatchObject({ status: "completed", counts: { servicesSeen: 3 } });
    for (const slug of ["a", "b", "c"]) expect(site.countRequests(`/s/${slug}`)).toBe(1);
    expect(site.countRequests("/dir?page=2")).toBe(1);
    expect(site.requests.some((r) => ["/about", "/login", "/terms", "/"].includes(r.path))).toBe(false);
  });

  it("when robots.txt disallows detail pages, then they are not fetched", async () => {
    site.set("/robots.txt", { body: "User-agent: *\nDisallow: /s/secret\n", contentType: "text/plain" });
    site.set("/dir", miniListing(["open", "secret"]));
    site.set("/s/open", miniDetail("open")).set("/s/secret", miniDetail("secret"));
    const outcome = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(outcome.status).toBe("completed");
    expect(site.countRequests("/s/secret")).toBe(0);
    expect(site.countRequests("/s/open")).toBe(1);
    // robots.txt itself is fetched by Crawlee with its own client; every page request names us.
    const pageRequests = site.requests.filter((r) => r.path !== "/robots.txt");
    expect(pageRequests.every((r) => r.userAgent === "x402-catalogue-test/1.0")).toBe(true);
  });
});
