import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../../src/db/embedded-postgres";
import { PASSWORD_FILE } from "../../../src/db/embedded-postgres-password";
import { recordingLogger, testLogger } from "../../support/logger";

/** The one password every data directory had before each got its own. */
const SHARED_PASSWORD = "catalogue-embedded";

function withPassword(url: string, password: string): string {
  const changed = new URL(url);
  changed.password = password;
  return changed.href;
}

async function keptPassword(dataDir: string): Promise<{ password: string; mode: number }> {
  const file = path.join(dataDir, PASSWORD_FILE);
  return { password: (await readFile(file, "utf8")).trim(), mode: (await stat(file)).mode & 0o777 };
}

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

  it("when data directories are initialised, then each has its own random password, kept in a 0600 file beside the data and reused", async () => {
    const passwords: string[] = [];
    for (const _ of [1, 2]) {
      const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-embedded-"));
      dirs.push(dataDir);
      const options = { dataDir, preferredPort: 0, database: "catalogue", logger: testLogger };
      const first = await startEmbeddedPostgres(options);
      await first.stop();
      const kept = await keptPassword(dataDir);
      expect(kept.mode).toBe(0o600);
      expect(kept.password).toMatch(/^[\w-]{43}$/);
      const second = await startEmbeddedPostgres(options);
      try {
        expect(decodeURIComponent(new URL(second.url).password)).toBe(kept.password);
        expect(await run<{ one: number }>(second.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
        await expect(run(withPassword(second.url, SHARED_PASSWORD), "SELECT 1")).rejects.toThrow(
          /password authentication failed/,
        );
      } finally {
        await second.stop();
      }
      passwords.push(kept.password);
    }
    expect(passwords[0]).not.toBe(passwords[1]);
  });

  it("when a data directory still has the shared password and no password file, then the start gives it its own and keeps its data", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-embedded-"));
    dirs.push(dataDir);
    const options = { dataDir, preferredPort: 0, database: "catalogue", logger: testLogger };
    // A directory as the shared password left it: the role's password, and no file beside the data.
    const before = await startEmbeddedPostgres(options);
    await run(
      before.url,
      `CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here');
      ALTER ROLE postgres PASSWORD '${SHARED_PASSWORD}'`,
    );
    await before.stop();
    await rm(path.join(dataDir, PASSWORD_FILE));

    const log = recordingLogger();
    const after = await startEmbeddedPostgres({ ...options, logger: log.logger });
    try {
      const kept = await keptPassword(dataDir);
      expect(kept.mode).toBe(0o600);
      expect(kept.password).not.toBe(SHARED_PASSWORD);
      expect(await run<{ value: string }>(after.url, "SELECT value FROM kept")).toEqual([
        { value: "still here" },
      ]);
      await expect(run(withPassword(after.url, SHARED_PASSWORD), "SELECT 1")).rejects.toThrow(
        /password authentication failed/,
      );
      expect(log.lines.some((line) => line.msg.includes("it now has its own"))).toBe(true);
      const logged = JSON.stringify(log.lines) + (await readFile(path.join(dataDir, "postgres.log"), "utf8"));
      expect(logged).not.toContain(kept.password);
    } finally {
      await after.stop();
    }
  });
});
