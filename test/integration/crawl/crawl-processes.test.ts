import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSource } from "../../../src/catalogue/sources";
import { tryLockSource } from "../../../src/scheduling/source-lock";
import { crawlOnce } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";
import { startEntryPoint } from "../../support/processes";

const SLUGS = Array.from({ length: 30 }, (_, i) => `svc${i}`);

describe("crawls across processes", () => {
  let database: TestDatabase;
  const site = new FixtureSite();
  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/dir", miniListing(SLUGS));
    for (const slug of SLUGS) site.set(`/s/${slug}`, { body: miniDetail(slug), delayMs: 200 });
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });

  function crawlProcess() {
    return startEntryPoint("jobs/crawl.ts", [site.url("/dir")], {
      DATABASE_URL: database.url,
      LOG_LEVEL: "info",
      CRAWL_MAX_CONCURRENCY: "2",
      CRAWL_RESPECT_ROBOTS_TXT: "false",
      CRAWL_MAX_REQUESTS_PER_MINUTE: "100000",
    });
  }

  it("when another process holds the source's lock, then npm run crawl skips with a clear message and exit 0", async () => {
    const source = await ensureSource(database.db, "html_directory", site.url("/dir"));
    const lock = await tryLockSource(database.url, source.id);
    expect(lock).not.toBeNull();
    try {
      const proc = crawlProcess();
      expect(await proc.exited).toBe(0);
      expect(proc.lines.some((l) => String(l.msg).includes("already running"))).toBe(true);
      expect(await database.db.crawlRun.count()).toBe(0);
    } finally {
      await lock?.release();
    }
  });

  it("when two crawls of one source start together, then exactly one runs", async () => {
    const [a, b] = await Promise.all([
      crawlOnce(database.db, database.url, site.url("/dir")),
      crawlOnce(database.db, database.url, site.url("/dir")),
    ]);
    expect([a.status, b.status].sort()).toEqual(["completed", "skipped"]);
  });

  it("when a crawl is killed midway and run again, then the catalogue is whole and consistent", async () => {
    await database.db.service.deleteMany();
    await database.db.pageCache.deleteMany();
    const proc = crawlProcess();
    await proc.waitForLog((l) => l.msg === "crawl started");
    for (let i = 0; i < 100 && (await database.db.service.count()) < 5; i++)
      await new Promise((r) => setTimeout(r, 50));
    proc.child.kill("SIGKILL");
    await proc.exited;
    const stored = await database.db.service.count();
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(SLUGS.length);

    const rerun = await crawlOnce(database.db, database.url, site.url("/dir"));
    expect(rerun).toMatchObject({ status: "completed", counts: { servicesSeen: SLUGS.length } });
    const runs = await database.db.crawlRun.findMany({ orderBy: { startedAt: "asc" } });
    expect(runs.at(-2)?.status).toBe("aborted");
    const services = await database.db.service.findMany({
      include: { _count: { select: { snapshots: true, endpoints: true } } },
    });
    expect(services).toHaveLength(SLUGS.length);
    expect(new Set(services.map((s) => s.detailUrl)).size).toBe(SLUGS.length);
    expect(
      services.every((s) => s._count.snapshots === 1 && s._count.endpoints === 1 && s.status === "listed"),
    ).toBe(true);
  });

  it("when a crawl is stopped with SIGTERM, then it ends as aborted, delists nothing and exits 130", async () => {
    const proc = crawlProcess();
    await proc.waitForLog((l) => l.msg === "crawl started");
    await new Promise((r) => setTimeout(r, 300));
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(130);
    const last = await database.db.crawlRun.findFirstOrThrow({ orderBy: { startedAt: "desc" } });
    expect(last).toMatchObject({ status: "aborted", servicesDelisted: 0 });
    expect(await database.db.service.count({ where: { status: "delisted" } })).toBe(0);
  });
});
