import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { processAlive } from "../../../src/db/embedded-postgres-users";
import { preparedDataDir } from "../../support/prepared-data-dir";
import { entryPointArgs, type StartedProcess, startEntryPoint } from "../../support/processes";

const REPO = path.resolve(import.meta.dirname, "../../..");

describe("a stdio MCP session on the embedded database", () => {
  const dirs: string[] = [];
  const started: StartedProcess[] = [];
  afterAll(async () => {
    for (const proc of started) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("when the client closes the session, then the server stops by itself, cleanly, and the product starts at once", async () => {
    const dir = await preparedDataDir("catalogue-mcp-");
    dirs.push(dir);
    const env = {
      CATALOGUE_DATA_DIR: dir,
      EMBEDDED_POSTGRES_PORT: "0",
      SOURCES: "none",
      PROBE_ENABLED: "false",
    };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: entryPointArgs("jobs/mcp.ts"),
      cwd: REPO,
      env: { PATH: process.env.PATH ?? "", ...env, LOG_LEVEL: "info" },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "catalogue-test-stdio", version: "1.0.0" });
    await client.connect(transport);
    const result = await client.callTool({ name: "list_categories", arguments: {} });
    expect(result.isError).toBeFalsy();
    const postgres = Number(
      (await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0],
    );

    await client.close(); // ends stdin; the SDK sends SIGTERM to a server still running 2 s later

    const messages = stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg: string; exitCode?: number });
    expect(messages.map((m) => m.msg)).toContain("stdin closed: the MCP session is over, shutting down");
    expect(messages.map((m) => m.msg)).not.toContain("SIGTERM: shutting down");
    expect(messages.at(-1)).toMatchObject({ msg: "mcp server exited", exitCode: 0 });
    expect(stderr).not.toContain("RangeError");
    expect(stderr).not.toContain("error while shutting down");
    expect(existsSync(path.join(dir, "embedded-postgres.lock"))).toBe(false);
    expect(processAlive(postgres)).toBe(false);

    const product = startEntryPoint("src/main.ts", [], {
      ...env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    });
    started.push(product);
    const listening = await product.waitForLog((l) => String(l.msg).includes("listening on"));
    expect((await fetch(`http://127.0.0.1:${listening.port as number}/healthz`)).status).toBe(200);
    product.child.kill("SIGTERM");
    expect(await product.exited).toBe(0);
  });
});
