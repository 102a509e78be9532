import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../../src/db/embedded-postgres";
import { testLogger } from "../../support/logger";

async function run<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("embedded postgres", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("when stopped and started again on the same data directory, then the data is still there", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-embedded-"));
    dirs.push(dataDir);
    const options = { dataDir, preferredPort: 0, database: "catalogue", logger: testLogger };

    const first = await startEmbeddedPostgres(options);
    await run(first.url, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
    await first.stop();
    await expect(run(first.url, "SELECT 1")).rejects.toThrow();

    const second = await startEmbeddedPostgres(options);
    try {
      expect(await run<{ value: string }>(second.url, "SELECT value FROM kept")).toEqual([
        { value: "still here" },
      ]);
    } finally {
      await second.stop();
    }
  });

  it("when the preferred port is taken, then a free port is used", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-embedded-"));
    dirs.push(dataDir);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const takenPort = (blocker.address() as net.AddressInfo).port;
    try {
      const server = await startEmbeddedPostgres({
        dataDir,
        preferredPort: takenPort,
        database: "catalogue",
        logger: testLogger,
      });
      try {
        expect(server.port).not.toBe(takenPort);
        expect(await run<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      } finally {
        await server.stop();
      }
    } finally {
      blocker.close();
    }
  });
});
