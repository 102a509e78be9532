import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EmbeddedServerUsers } from "../../../src/db/embedded-postgres-users";

/** A pid that is certainly gone: a child that has exited and been reaped. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid as number;
}

describe("the embedded postgres lock", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "catalogue-lock-"));
    dirs.push(dir);
    return dir;
  }

  it("when a lock names no holder (left by a process killed midway), then it is taken over at once", async () => {
    const dir = await dataDir();
    await mkdir(path.join(dir, "embedded-postgres.lock"));
    const users = new EmbeddedServerUsers(dir);
    expect(await users.withLock(async () => "ran", 500)).toBe("ran");
    expect(await readdir(dir)).toEqual([]);
  });

  it("when the lock's holder is gone, then it is taken over at once", async () => {
    const dir = await dataDir();
    await mkdir(path.join(dir, "embedded-postgres.lock"));
    await writeFile(path.join(dir, "embedded-postgres.lock", "pid"), String(deadPid()));
    expect(await new EmbeddedServerUsers(dir).withLock(async () => "ran", 500)).toBe("ran");
  });

  it("when a live process holds the lock, then the wait ends with a message naming it and how to clear it", async () => {
    const dir = await dataDir();
    await mkdir(path.join(dir, "embedded-postgres.lock"));
    await writeFile(path.join(dir, "embedded-postgres.lock", "pid"), String(process.ppid));
    await expect(new EmbeddedServerUsers(dir).withLock(async () => "ran", 200)).rejects.toThrow(
      new RegExp(
        `held by process ${process.ppid}, which is still running; stop that process, or remove .*embedded-postgres.lock`,
      ),
    );
  });

  it("while the lock is held, then it names its holder, and the next holder waits for it", async () => {
    const dir = await dataDir();
    const users = new EmbeddedServerUsers(dir);
    const order: string[] = [];
    let seen = "";
    await Promise.all([
      users.withLock(async () => {
        seen = await readFile(path.join(dir, "embedded-postgres.lock", "pid"), "utf8");
        await new Promise((resolve) => setTimeout(resolve, 150));
        order.push("first");
      }),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        new EmbeddedServerUsers(dir).withLock(async () => {
          order.push("second");
        }),
      ),
    ]);
    expect(seen).toBe(String(process.pid));
    expect(order).toEqual(["first", "second"]);
    expect(await readdir(dir)).toEqual([]);
  });
});
