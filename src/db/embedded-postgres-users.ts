import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
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

  /**
   * Runs `action` holding the data directory's lock: a directory holding the holder's pid. It
   * comes into being whole (made under a temporary name with its pid file, then renamed into
   * place, which is atomic and fails while another lock is there) and goes away whole (renamed
   * aside, then removed), so a process killed at any moment leaves either no lock or one naming
   * it. A lock whose holder is gone, or that names no holder (an older version's), is taken
   * over at once.
   */
  async withLock<T>(action: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await this.tryLock()) break;
      const holder = await this.lockHolder();
      if (holder === null || !processAlive(holder)) {
        await this.removeLock(holder);
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `the embedded postgres lock ${this.lockDir} is held by process ${holder}, which is still running; ` +
            `stop that process, or remove ${this.lockDir} if it is not a catalogue process`,
        );
      await sleep(100);
    }
    try {
      return await action();
    } finally {
      await this.removeLock();
    }
  }

  private async tryLock(): Promise<boolean> {
    const draft = `${this.lockDir}.${process.pid}.${randomUUID()}`;
    await mkdir(draft);
    await writeFile(path.join(draft, "pid"), String(process.pid));
    try {
      await rename(draft, this.lockDir);
      return true;
    } catch (error) {
      await rm(draft, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST") return false;
      throw error;
    }
  }

  /** The pid the lock names; null when there is no lock or it names no valid pid. */
  private async lockHolder(): Promise<number | null> {
    const text = await readFile(path.join(this.lockDir, "pid"), "utf8").catch(() => "");
    const pid = Number(text);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  /**
   * Removes the lock that names `holder` (this process by default). Another process may have
   * taken over the same stale lock a moment earlier: a lock found naming someone else is put back.
   */
  private async removeLock(holder: number | null = process.pid): Promise<void> {
    const aside = `${this.lockDir}.${process.pid}.${randomUUID()}.gone`;
    try {
      await rename(this.lockDir, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    const found = Number(await readFile(path.join(aside, "pid"), "utf8").catch(() => ""));
    if (
      found > 0 &&
      found !== holder &&
      (await rename(aside, this.lockDir).then(
        () => true,
        () => false,
      ))
    )
      return;
    await rm(aside, { recursive: true, force: true });
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
