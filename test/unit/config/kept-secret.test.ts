import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keptSecret, readKeptSecret } from "../../../src/config/kept-secret";

describe("a secret kept in a file", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("when several callers ask at once for a secret not yet kept, then one value is generated, kept with mode 0600, and read back later", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "kept-secret-"));
    dirs.push(dir);
    const file = path.join(dir, "nested", "secret");
    expect(await readKeptSecret(file)).toBeNull();
    const values = await Promise.all(Array.from({ length: 8 }, () => keptSecret(file)));
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^[\w-]{43}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await keptSecret(file)).toBe(values[0]);
  });
});
