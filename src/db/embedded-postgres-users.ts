import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Which processes use the embedded server of one data directory. Every process that starts or
 * joins the server leaves a file named after its pid in `embedded-postgres.users/`; the last one
 * to leave stops the server. A process killed outright leaves its file behind, which is ignored
 * once its pid is gone. Decisions (start, join, stop) are taken under a lock directory, so two
 * processes never both start a server or stop one the other has just joined.
 */
export class EmbeddedServerUsers {
  private readonly usersDir: string;
  private readonly lockDir: string;

  constructor(dataDir: string) {
    this.usersDir = path.join(dataDir, "embedded-postgres.users");
    this.lockDir = path.join(dataDir, "embedded-postgres.lock");
  }

  /** Runs `action` holding the data directory's lock (a directory: mkdir is atomic). */
  async withLock<T>(action: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await mkdir(this.lockDir);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = Number(await readFile(path.join(this.lockDir, "pid"), "utf8").catch(() => ""));
        // A holder that died (or had not yet written its pid a moment ago) leaves a stale lock.
        if (holder > 0 && !processAlive(holder)) await rm(this.lockDir, { recursive: true, force: true });
        else if (Date.now() > deadline)
          throw new Error(`the embedded postgres lock ${this.lockDir} is held by process ${holder}`);
        else await sleep(100);
      }
    }
    try {
      await writeFile(path.join(this.lockDir, "pid"), String(process.pid));
      return await action();
    } finally {
      await rm(this.lockDir, { recursive: true, force: true });
    }
  }

  async join(pid = process.pid): Promise<void> {
    await mkdir(this.usersDir, { recursive: true });
    await writeFile(path.join(this.usersDir, String(pid)), "");
  }

  async leave(pid = process.pid): Promise<void> {
    await rm(path.join(this.usersDir, String(pid)), { force: true });
  }

  /**
   * For a process exiting without a clean stop (an uncaught error): 'exit' handlers must be
   * synchronous. Leaves, and tells whether any other live process still uses the server.
   */
  leaveSync(): boolean {
    rmSync(path.join(this.usersDir, String(process.pid)), { force: true });
    const names = (() => {
      try {
        return readdirSync(this.usersDir);
      } catch {
        return [];
      }
    })();
    return names.some((name) => Number(name) !== process.pid && processAlive(Number(name)));
  }

  /** The pids of live users other than this process; dead users' files are removed. */
  async others(): Promise<number[]> {
    const names = await readdir(this.usersDir).catch(() => [] as string[]);
    const live: number[] = [];
    for (const name of names) {
      const pid = Number(name);
      if (pid === process.pid) continue;
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) live.push(pid);
      else await rm(path.join(this.usersDir, name), { force: true });
    }
    return live;
  }
}

/** Alive and not a zombie (a zombie answers signal 0 until its parent reaps it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // Synchronous on purpose: a /proc read does not block, and callers want a plain boolean.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
