import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";
import { preparedDataDir } from "../../support/prepared-data-dir";
import { exitWithin10s, type StartedProcess, startEntryPoint } from "../../support/processes";

const SLUGS = Array.from({ length: 12 }, (_, i) => `slow${i}`);

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("stop signals", () => {
  let database: TestDatabase;
  const site = new FixtureSite();
  const dirs: string[] = [];
  const started: StartedProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/dir", miniListing(SLUGS));
    // A directory whose detail pages answer after a minute: a crawl that waits for the pages in
    // flight before it stops does not stop.
    for (const slug of SLUGS) site.set(`/s/${slug}`, { body: miniDetail(slug), delayMs: 60_000 });
  });
  afterAll(async () => {
    for (const proc of started) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
    await site.stop();
    await database.drop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("when two SIGINTs arrive 9 ms apart (Ctrl-C under npm), then the product stops once, cleanly, with exit code 0", async () => {
    const dir = await preparedDataDir("catalogue-signals-");
    dirs.push(dir);
    const product = startEntryPoint("src/main.ts", [], {
      CATALOGUE_DATA_DIR: dir,
      PORT: "0",
      HOST: "127.0.0.1",
      EMBEDDED_POSTGRES_PORT: "0",
      LOG_LEVEL: "info",
      SOURCES: "none",
      PROBE_ENABLED: "false",
    });
    started.push(product);
    await product.waitForLog((l) => String(l.msg).includes("listening on"));

    product.child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 9));
    product.child.kill("SIGINT");

    expect(await exitWithin10s(product)).toBe(0);
    const messages = product.lines.map((l) => l.msg);
    expect(messages).toContain("SIGINT: shutting down");
    expect(messages).toContain("embedded postgres stopped");
    expect(messages).not.toContain("second signal: exiting now");
  });

  for (const signal of ["SIGINT", "SIGHUP"] as const) {
    it(`when a crawl of a slow directory gets ${signal}, then it stops within seconds and its run is recorded as aborted`, async () => {
      const crawl = startEntryPoint("jobs/crawl.ts", [site.url("/dir")], {
        DATABASE_URL: database.url,
        LOG_LEVEL: "info",
        CRAWL_MAX_CONCURRENCY: "4",
        CRAWL_RESPECT_ROBOTS_TXT: "false",
        CRAWL_MAX_REQUESTS_PER_MINUTE: "100000",
      });
      started.push(crawl);
      const begun = await crawl.waitForLog((l) => l.msg === "crawl started");
      await until(() => site.requests.some((r) => r.path.startsWith("/s/"))); // detail pages in flight

      crawl.child.kill(signal);

      expect(await exitWithin10s(crawl)).toBe(130);
      const run = await database.db.crawlRun.findUniqueOrThrow({ where: { id: begun.crawlRun as string } });
      expect(run.status).toBe("aborted");
      expect(run.finishedAt).not.toBeNull();
    });
  }
});
