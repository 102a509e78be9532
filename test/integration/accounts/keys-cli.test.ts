import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseKeysCommand, runKeysCommand } from "../../../src/accounts/keys-command";
import { bearer, call, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { startEntryPoint, startNpmScript } from "../../support/processes";

describe("npm run keys", () => {
  let database: TestDatabase;
  let api: Replica;
  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database);
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  async function run(...argv: string[]): Promise<{ code: number; output: string[]; messages: string[] }> {
    const output: string[] = [];
    const messages: string[] = [];
    const code = await runKeysCommand(database.db, parseKeysCommand(argv), {
      result: (text) => output.push(text),
      message: (text) => messages.push(text),
    });
    return { code, output, messages };
  }

  /** What `$(npm run --silent keys -- …)` captures: stdout alone, with logs at info on stderr. */
  async function captured(...argv: string[]): Promise<{ stdout: string; stderr: string }> {
    const child = startNpmScript("keys", argv, { DATABASE_URL: database.url, LOG_LEVEL: "info" });
    let stdout = "";
    child.child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    expect(await child.exited, child.stderr()).toBe(0);
    return { stdout: stdout.trimEnd(), stderr: child.stderr() };
  }

  it("when an operator creates a key as KEY=$(npm run --silent keys -- create …), then stdout is the key alone, and it works", async () => {
    const { stdout, stderr } = await captured(
      ...[
        "create",
        "--org",
        "acme",
        "--env",
        "live",
        "--scope",
        "keys:write,catalogue:read",
        "--name",
        "ci bot",
      ],
    );
    expect(stdout).toMatch(/^xcat_live_[A-Za-z0-9_-]{43}$/);
    expect(stderr).toContain("shown this once");
    expect(stderr).toContain('"ci bot"');
    const key = stdout;
    expect((await call(api.url, "/v1/api-keys", { headers: bearer(key) })).status).toBe(200);

    const listed = await run("list", "--org", "acme");
    expect(listed.code).toBe(0);
    expect(listed.output).toHaveLength(1);
    expect(listed.output[0]).toContain(`"ci bot"  xcat_live_…${key.slice(-4)}  keys:write,catalogue:read`);
    expect(listed.output.join("\n")).not.toContain(key.slice(10, 30));
  });

  it("when keys are listed with --json, then stdout is one JSON document in the API's shape, names included", async () => {
    await run(
      "create",
      "--org",
      "initech",
      "--env",
      "test",
      "--scope",
      "catalogue:read",
      "--name",
      "dashboard",
    );
    const { stdout } = await captured("list", "--org", "initech", "--json");
    const listed = JSON.parse(stdout) as { items: Record<string, unknown>[] };
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({
      name: "dashboard",
      environment: "test",
      prefix: "xcat_test_",
      scopes: ["catalogue:read"],
      revoked_at: null,
    });
    expect(listed.items[0]).not.toHaveProperty("key");
  });

  it.each([
    ["x".repeat(101), "--name must be at most 100 characters"],
    ["a\tb", "--name must not contain control characters"],
  ])("when --name is %j, then the usage error names --name: %s", (name, message) => {
    const argv = ["create", "--org", "a", "--env", "live", "--scope", "catalogue:read", "--name", name];
    expect(() => parseKeysCommand(argv)).toThrow(message);
  });

  it("when an operator revokes a key by id, then the API refuses it and the listing says revoked", async () => {
    const created = await run("create", "--org", "globex", "--env", "test", "--scope", "catalogue:read");
    const key = created.output[0] ?? "";
    const id = created.messages[0]?.split(" ")[0] ?? "";
    expect((await call(api.url, "/v1/tags", { headers: bearer(key) })).status).toBe(200);
    expect((await run("revoke", "--id", id)).code).toBe(0);
    expect((await call(api.url, "/v1/tags", { headers: bearer(key) })).status).toBe(401);
    expect((await run("list", "--org", "globex", "--env", "test")).output[0]).toContain("revoked");
  });

  it("when the organisation or key does not exist, then exit code 1 and a message", async () => {
    expect(await run("list", "--org", "nobody")).toEqual({
      code: 1,
      output: [],
      messages: ["No organisation named nobody"],
    });
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await run("revoke", "--id", missing)).toEqual({
      code: 1,
      output: [],
      messages: [`No API key with id ${missing}`],
    });
  });

  it("when the command line is wrong, then exit code 2 with the usage", async () => {
    const child = startEntryPoint("jobs/keys.ts", ["create", "--org", "acme"], {
      DATABASE_URL: database.url,
    });
    expect(await child.exited).toBe(2);
    expect(child.stderr()).toContain("npm run keys -- create --org NAME");
  });
});
