import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD_FILE } from "../../../src/db/embedded-postgres-password";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";
import { preparedDataDir } from "../../support/prepared-data-dir";
import { productEnv, type StartedProcess, startEntryPoint } from "../../support/processes";

/** The password the first start generated for the data directory. */
async function embeddedPassword(dataDir: string): Promise<string> {
  return (await readFile(path.join(dataDir, PASSWORD_FILE), "utf8")).trim();
}

async function startProduct(
  dataDir: string,
): Promise<{ proc: StartedProcess; port: number; pgPort: number }> {
  // Probing on, as the product starts by default.
  const proc = startEntryPoint("src/main.ts", [], productEnv(dataDir, { PROBE_ENABLED: "true" }));
  const pgReady = await proc.waitForLog(
    (l) => l.component === "embedded-postgres" && typeof l.port === "number" && l.msg !== undefined,
  );
  const listening = await proc.waitForLog((l) => typeof l.msg === "string" && l.msg.includes("listening"));
  return { proc, port: listening.port as number, pgPort: pgReady.port as number };
}

async function stopProduct(proc: StartedProcess): Promise<number | null> {
  proc.child.kill("SIGTERM");
  return proc.exited;
}

describe("npm start (src/main.ts)", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("when started with no DATABASE_URL, then it is healthy, stops cleanly and keeps data across restarts", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "catalogue-start-"));
    dirs.push(dataDir);

    const first = await startProduct(dataDir);
    const health = await fetch(`http://127.0.0.1:${first.port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", database: "up" });

    const client = new pg.Client({
      host: "127.0.0.1",
      port: first.pgPort,
      user: "postgres",
      password: await embeddedPassword(dataDir),
      database: "catalogue",
    });
    await client.connect();
    await client.query(
      "INSERT INTO sources (id, kind, base_url, updated_at) VALUES (gen_random_uuid(), 'html_directory', 'http://kept.test/', now())",
    );
    await client.end();

    expect(await stopProduct(first.proc)).toBe(0);
    expect(first.proc.lines.some((l) => l.msg === "embedded postgres stopped")).toBe(true);

    const second = await startProduct(dataDir);
    try {
      const client2 = new pg.Client({
        host: "127.0.0.1",
        port: second.pgPort,
        user: "postgres",
        password: await embeddedPassword(dataDir),
        database: "catalogue",
      });
      await client2.connect();
      const rows = await client2.query("SELECT base_url FROM sources");
      await client2.end();
      expect(rows.rows).toEqual([{ base_url: "http://kept.test/" }]);
    } finally {
      expect(await stopProduct(second.proc)).toBe(0);
    }
  });

  it("when the process was killed outright, then the next start takes over the data directory", async () => {
    const dataDir = await preparedDataDir("catalogue-start-");
    dirs.push(dataDir);
    const killed = await startProduct(dataDir);
    killed.proc.child.kill("SIGKILL"); // no shutdown runs: its Postgres is left behind, holding the directory
    await killed.proc.exited;

    const next = await startProduct(dataDir);
    try {
      expect(next.proc.lines.some((l) => String(l.msg).includes("left running by an earlier process"))).toBe(
        true,
      );
      expect((await fetch(`http://127.0.0.1:${next.port}/healthz`)).status).toBe(200);
    } finally {
      expect(await stopProduct(next.proc)).toBe(0);
    }
  });

  it("when npm run crawl runs beside npm start on the embedded database, then it shares that server", async () => {
    const dataDir = await preparedDataDir("catalogue-start-");
    dirs.push(dataDir);
    const site = await new FixtureSite().start();
    site.set("/dir", miniListing(["shared"])).set("/s/shared", miniDetail("shared"));
    const product = await startProduct(dataDir);
    try {
      const crawl = startEntryPoint("jobs/crawl.ts", [site.url("/dir")], {
        CATALOGUE_DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        CRAWL_RESPECT_ROBOTS_TXT: "false",
      });
      expect(await crawl.exited).toBe(0);
      expect(
        crawl.lines.some((l) => l.msg === "using the embedded postgres of a running catalogue process"),
      ).toBe(true);
      const health = await (await fetch(`http://127.0.0.1:${product.port}/healthz`)).json();
      expect(health).toMatchObject({ status: "ok", last_crawl: { status: "completed" } });
    } finally {
      expect(await stopProduct(product.proc)).toBe(0);
      await site.stop();
    }
  });

  it("when a setting is invalid, then it exits non-zero naming the variable and what is allowed", async () => {
    const proc = startEntryPoint("src/main.ts", [], {
      PORT: "abc",
      CRAWL_SCHEDULE: "hourly",
      SITE_OVERRIDES: "{bad",
      PROBE_ENABLED: "FALSE",
    });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toMatch(/^Invalid configuration:\n/);
    expect(proc.stderr()).toContain('SITE_OVERRIDES="{bad": must be JSON such as');
    expect(proc.stderr()).not.toContain("PROBE_ENABLED");
    expect(proc.stderr()).not.toMatch(/\n\s+at /); // no stack trace
    expect(proc.stderr()).toContain('PORT="abc": must be a number');
    expect(proc.stderr()).toContain('CRAWL_SCHEDULE="hourly": must be a five-field cron expression');
  });
});
