import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD_FILE } from "../../../src/db/embedded-postgres-password";
import { processAlive } from "../../../src/db/embedded-postgres-users";
import { FixtureSite } from "../../support/fixture-site";
import { miniDetail, miniListing } from "../../support/mini-directory";
import { preparedDataDir } from "../../support/prepared-data-dir";
import {
  exitWithin10s,
  productEnv,
  type StartedProcess,
  startBuiltEntryPoint,
  startEntryPoint,
  startNpmScript,
  TestLeftovers,
} from "../../support/processes";

async function listeningPort(proc: StartedProcess): Promise<number> {
  const line = await proc.waitForLog((l) => typeof l.msg === "string" && l.msg.includes("listening on"));
  return line.port as number;
}

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
}

describe("operations: processes and the embedded database", () => {
  const leftovers = new TestLeftovers();
  const { dirs, processes: started } = leftovers;
  afterAll(() => leftovers.cleanUp());
  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "catalogue-ops-"));
    dirs.push(dir);
    return dir;
  }
  /** A data directory an earlier start already initialised and migrated (no initdb per test). */
  async function usedDataDir(): Promise<string> {
    const dir = await preparedDataDir("catalogue-ops-");
    dirs.push(dir);
    return dir;
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`when ${signal} reaches only the npm start process, then node and the embedded postgres stop within 10 s, in a few clean lines`, async () => {
      const dir = await usedDataDir();
      const npm = startNpmScript("start", [], productEnv(dir));
      started.push(npm);
      await listeningPort(npm);
      const postgres = await postmasterPid(dir);
      const linesBefore = npm.lines.length;

      npm.child.kill(signal); // npm alone, as docker stop does to PID 1

      expect(await exitWithin10s(npm)).not.toBe("still running");
      expect(processAlive(postgres)).toBe(false);
      const stopLines = npm.lines.slice(linesBefore);
      expect(stopLines.map((l) => l.msg)).toEqual(
        expect.arrayContaining([
          `${signal}: shutting down`,
          "embedded postgres stopped",
          "x402 catalogue exited",
        ]),
      );
      expect(stopLines.length).toBeLessThanOrEqual(6);
      const everything = JSON.stringify(npm.lines) + npm.stderr();
      const password = (await readFile(path.join(dir, PASSWORD_FILE), "utf8")).trim();
      expect(everything).not.toContain(password);
    });
  }

  it("when the process that started the embedded postgres stops, then the API that joined it keeps answering", async () => {
    const dir = await usedDataDir();
    const worker = startEntryPoint("jobs/worker.ts", [], { ...productEnv(dir), PROBE_ENABLED: "true" });
    started.push(worker);
    await worker.waitForLog((l) => l.msg === "worker ready");
    const api = startEntryPoint("src/main.ts", [], productEnv(dir));
    started.push(api);
    const port = await listeningPort(api);
    expect(
      api.lines.some((l) => l.msg === "using the embedded postgres of a running catalogue process"),
    ).toBe(true);

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(
      worker.lines.some((l) => l.msg === "embedded postgres left running for the processes still using it"),
    ).toBe(true);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/v1/services`)).status).toBe(200);
    const postgres = await postmasterPid(dir);
    api.child.kill("SIGTERM");
    expect(await api.exited).toBe(0);
    expect(processAlive(postgres)).toBe(false); // the last user stopped it
  });

  it("when the embedded postgres is stopped underneath the API, then the API exits 1 saying why", async () => {
    const dir = await usedDataDir();
    const api = startEntryPoint("src/main.ts", [], productEnv(dir));
    started.push(api);
    await listeningPort(api);
    // The index load at start holds a connection; its loss is another (logged) way out.
    await api.waitForLog((l) => l.msg === "catalogue index loaded");

    process.kill(await postmasterPid(dir), "SIGINT");

    expect(await api.exited).toBe(1);
    expect(
      api.lines.some((l) => String(l.msg).startsWith("the embedded postgres this process used has stopped")),
      JSON.stringify(api.lines.map((l) => (l.err ? { msg: l.msg, err: l.err } : l.msg))),
    ).toBe(true);
    expect(api.lines.at(-1)).toMatchObject({ exitCode: 1 });
  });

  it("when built with npm run build, then dist/ serves the API and crawls with extraction threads, with no tsx", async () => {
    execFileSync("npm", ["run", "--silent", "build"], { stdio: "ignore" });
    for (const file of await readdir("dist")) {
      if (file.endsWith(".js"))
        expect(await readFile(path.join("dist", file), "utf8")).not.toMatch(
          /from "tsx|import\("tsx|tsImport/,
        );
    }
    const site = await new FixtureSite().start();
    site.set("/dir", miniListing(["built"])).set("/s/built", miniDetail("built"));
    const dir = await usedDataDir();
    const api = startBuiltEntryPoint("dist/main.js", [], productEnv(dir));
    started.push(api);
    try {
      const port = await listeningPort(api);
      const crawl = startBuiltEntryPoint("dist/crawl.js", [site.url("/dir")], {
        CATALOGUE_DATA_DIR: dir,
        CRAWL_EXTRACTION_THREADS: "1",
        CRAWL_RESPECT_ROBOTS_TXT: "false",
      });
      expect(await crawl.exited).toBe(0);
      expect(
        crawl.lines.some((l) => String(l.msg).startsWith("crawl completed") && l.servicesNew === 1),
      ).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      api.child.kill("SIGTERM");
      expect(await api.exited).toBe(0);
    } finally {
      await site.stop();
    }
  });

  it("when npm run crawl -- --help is typed, then it prints the usage and exits 0", async () => {
    const help = startNpmScript("crawl", ["--help"], {});
    started.push(help);
    expect(await help.exited).toBe(0);
    expect(help.lines[0]?.msg).toMatch(/^usage: npm run crawl -- \[--kind bazaar\|html_directory\] \[URL\]/);
    expect(help.stderr()).toBe("");
  });

  it.runIf(process.getuid?.() === 0)(
    "when root runs it with data in a directory the postgres user cannot enter, then it exits 1 naming the cause and the fix",
    async () => {
      const closed = await dataDir();
      await chmod(closed, 0o700);
      const inside = path.join(closed, "data");
      await mkdir(inside);
      const api = startEntryPoint("src/main.ts", [], productEnv(inside));
      started.push(api);

      expect(await api.exited).toBe(1);
      const failure = api.lines.find((l) => l.msg === "start-up failed");
      expect(JSON.stringify(failure)).toContain("which cannot reach its data directory");
      expect(JSON.stringify(failure)).toContain("set DATABASE_URL");
      expect(api.stderr()).not.toContain("EACCES");
    },
  );
});
