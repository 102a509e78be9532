import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CrawlOutcome } from "../../../src/crawl-run/outcome";
import { runSource, type SourceWalker, type WalkReport } from "../../../src/crawl-run/run-source";
import { seedServices } from "../../support/catalogue";
import { testCrawlSettings } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

/**
 * The shared run, driven by a scripted walk instead of a real source: whatever the kind, the run
 * alone decides from the walk's report whether to delist, and records the outcome.
 */
describe("one crawl run for any source kind", () => {
  let database: TestDatabase;
  let detailUrls: string[];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.source.deleteMany();
    const ids = await seedServices(database.db, [{ name: "Kept" }, { name: "Gone" }]);
    const rows = await database.db.service.findMany({
      where: { id: { in: [...ids] } },
      orderBy: { name: "desc" },
    });
    detailUrls = rows.map((row) => row.detailUrl);
  });

  const walker = (report: Partial<WalkReport> | Error): SourceWalker => ({
    kind: "html_directory",
    baseUrl: "http://directory.test/",
    name: "scripted crawl",
    walk: async () => {
      if (report instanceof Error) throw report;
      return {
        listedUrls: [detailUrls[0]!],
        aborted: false,
        crashed: null,
        shortfall: null,
        readSummary: "",
        ...report,
      };
    },
  });
  const run = async (report: Partial<WalkReport> | Error) => {
    const deps = {
      db: database.db,
      databaseUrl: database.url,
      logger: testLogger,
      settings: testCrawlSettings(),
    };
    const outcome: CrawlOutcome = await runSource(
      deps,
      { url: "http://directory.test/", trigger: "manual" },
      walker(report),
    );
    if (outcome.status === "skipped") throw new Error(outcome.reason);
    return outcome;
  };
  const statusOf = async (name: string) =>
    (await database.db.service.findFirstOrThrow({ where: { name } })).status;

  it("when the walk read the whole listing, then what it did not list is delisted", async () => {
    const outcome = await run({});
    expect(outcome.status).toBe("completed");
    expect(outcome.counts).toMatchObject({ listingComplete: true, servicesSeen: 1, servicesDelisted: 1 });
    expect(await statusOf("Kept")).toBe("listed");
    expect(await statusOf("Gone")).toBe("delisted");
  });

  it("when the walk names a shortfall, then the run takes its status and message and delists nothing", async () => {
    const outcome = await run({ shortfall: { status: "partial", message: "page 2 failed" } });
    expect(outcome).toMatchObject({ status: "partial", message: "page 2 failed" });
    expect(outcome.counts.listingComplete).toBe(false);
    expect(await statusOf("Gone")).toBe("listed");
  });

  it("when the walk was stopped, then the run is aborted and delists nothing", async () => {
    const outcome = await run({ aborted: true });
    expect(outcome.status).toBe("aborted");
    expect(await statusOf("Gone")).toBe("listed");
  });

  it("when the walk throws, then the run is recorded as failed with the error and delists nothing", async () => {
    const outcome = await run(new Error("walk broke"));
    expect(outcome).toMatchObject({ status: "failed", message: "crawler error: Error: walk broke" });
    const recorded = await database.db.crawlRun.findUniqueOrThrow({ where: { id: outcome.runId } });
    expect(recorded.status).toBe("failed");
    expect(await statusOf("Gone")).toBe("listed");
  });
});
