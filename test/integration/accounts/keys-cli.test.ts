import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseKeysCommand, runKeysCommand } from "../../../src/accounts/keys-command";
import { bearer, call, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { startEntryPoint } from "../../support/processes";

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

  async function run(...argv: string[]): Promise<{ code: number; output: string[] }> {
    const output: string[] = [];
    const code = await runKeysCommand(database.db, parseKeysCommand(argv), (line) => output.push(line));
    return { code, output };
  }

  it("when an operator creates the first key of an organisation from the shell, then it is printed once and works", async () => {
    const child = startEntryPoint(
      "jobs/keys.ts",
      ["create", "--org", "acme", "--env", "live", "--scope", "keys:write,catalogue:read"],
      { DATABASE_URL: database.url, LOG_LEVEL: "warn" },
    );
    expect(await child.exited).toBe(0);
    const printed = child.lines.map((line) => line.msg ?? "").join("\n");
    const key = /API key \(shown once, store it now\): (xcat_live_\S+)/.exec(printed)?.[1] ?? "";
    expect(key).toMatch(/^xcat_live_[A-Za-z0-9_-]{43}$/);
    expect((await call(api.url, "/v1/api-keys", { headers: bearer(key) })).status).toBe(200);

    const listed = await run("list", "--org", "acme");
    expect(listed.code).toBe(0);
    expect(listed.output).toHaveLength(1);
    expect(listed.output[0]).toContain(`xcat_live_…${key.slice(-4)}  keys:write,catalogue:read`);
    expect(listed.output.join("\n")).not.toContain(key.slice(10, 30));
  });

  it("when an operator revokes a key by id, then the API refuses it and the listing says revoked", async () => {
    const created = await run("create", "--org", "globex", "--env", "test", "--scope", "catalogue:read");
    const key = created.output[1]?.split(": ")[1] ?? "";
    const id = created.output[0]?.split(" ")[0] ?? "";
    expect((await call(api.url, "/v1/tags", { headers: bearer(key) })).status).toBe(200);
    expect((await run("revoke", "--id", id)).code).toBe(0);
    expect((await call(api.url, "/v1/tags", { headers: bearer(key) })).status).toBe(401);
    expect((await run("list", "--org", "globex", "--env", "test")).output[0]).toContain("revoked");
  });

  it("when the organisation or key does not exist, then exit code 1 and a message", async () => {
    expect(await run("list", "--org", "nobody")).toEqual({
      code: 1,
      output: ["No organisation named nobody"],
    });
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await run("revoke", "--id", missing)).toEqual({
      code: 1,
      output: [`No API key with id ${missing}`],
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
