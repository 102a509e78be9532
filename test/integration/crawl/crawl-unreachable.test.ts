import net from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlDirectory } from "../../../src/sources/html-directory/crawl-directory";
import { crawlOnce, testCrawlSettings } from "../../support/crawl";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** A TCP port that accepts connections and drops them at once, counting them. */
async function droppingServer(): Promise<{ port: number; connections: () => number; close: () => void }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () => server.close(),
  };
}

/** A port nothing listens on: connections are refused. */
async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("crawling a directory that cannot be reached", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it.each([2])(
    "when the connection is dropped and CRAWL_MAX_RETRIES=%i, then the listing is tried that many more times and the run fails",
    async (maxRetries) => {
      const server = await droppingServer();
      try {
        const outcome = await crawlOnce(database.db, database.url, `http://127.0.0.1:${server.port}/dir`, {
          maxRetries,
          respectRobotsTxt: false,
        });
        expect(outcome).toMatchObject({
          status: "failed",
          message: expect.stringContaining("the listing could not be read: connection reset"),
        });
        expect(server.connections()).toBe(1 + maxRetries);
      } finally {
        server.close();
      }
    },
  );

  it("when the connection is refused, then the listing is retried CRAWL_MAX_RETRIES times and the run fails with one clear message", async () => {
    const port = await refusedPort();
    const lines: { msg?: string }[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const outcome = await crawlDirectory(
      { db: database.db, databaseUrl: database.url, logger, settings: testCrawlSettings({ maxRetries: 1 }) },
      { url: `http://127.0.0.1:${port}/dir`, trigger: "manual" },
    );
    // Left to itself, Crawlee retries a refused connection as a "session error" 10 times whatever the setting.
    expect(lines.filter((line) => line.msg === "retrying page")).toHaveLength(1);
    if (outcome.status === "skipped") throw new Error("unexpected skip");
    expect(outcome).toMatchObject({
      status: "failed",
      message: `the listing could not be read: connection refused (connect ECONNREFUSED 127.0.0.1:${port})`,
    });
    const errors = await database.db.crawlError.findMany({ where: { crawlRunId: outcome.runId } });
    expect(errors.map((e) => e.message)).toEqual([
      `connection refused (connect ECONNREFUSED 127.0.0.1:${port})`,
    ]);
  });
});
