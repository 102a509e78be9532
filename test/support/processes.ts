import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { inject } from "vitest";

export interface LogLine {
  msg?: string;
  [key: string]: unknown;
}

/**
 * The product on its own embedded Postgres in `dataDir`, on free ports of 127.0.0.1, with JSON
 * logs, no crawls and no probes: what tests of its processes start it with (plus `extra`).
 */
export function productEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CATALOGUE_DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    EMBEDDED_POSTGRES_PORT: "0",
    LOG_LEVEL: "info",
    SOURCES: "none",
    PROBE_ENABLED: "false",
    ...extra,
  };
}

/**
 * What a test file starts: processes (killed if still running) and data directories (removed),
 * both by `cleanUp`, the file's afterAll.
 */
export class TestLeftovers {
  readonly processes: StartedProcess[] = [];
  readonly dirs: string[] = [];

  async cleanUp(): Promise<void> {
    for (const proc of this.processes) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
    await Promise.all(this.dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

export interface StartedProcess {
  child: ChildProcess;
  lines: LogLine[];
  stderr: () => string;
  /** Resolves with the first JSON log line that matches, or rejects when the process exits first. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** The exit code, once the process has ended and its output has been read to the end. */
  exited: Promise<number | null>;
}

/**
 * Starts one of the product's entry points (`src/main.ts`, `jobs/crawl.ts` …) with JSON logs on
 * stdout: its bundle, built once for the run by `npm run build`'s command (global setup), as the
 * image runs it; a script without a bundle runs through tsx. One process either way (no tsx
 * wrapper), so a signal or SIGKILL reaches the program itself. `npm start` itself, through npm
 * and tsx, is started by startNpmScript (operations.test.ts).
 */
export function startEntryPoint(script: string, args: string[], env: Record<string, string>): StartedProcess {
  return startCommand(process.execPath, [...entryPointArgs(script), ...args], env);
}

/** node's arguments that run an entry point: its bundle for this run, else the script through tsx. */
export function entryPointArgs(script: string): string[] {
  const bundle = path.join(inject("builtEntryPoints"), `${path.basename(script, ".ts")}.js`);
  return existsSync(bundle) ? [bundle] : ["--import", "tsx", script];
}

/** A built entry point (`npm run build` → dist/), run by node alone as the image runs it. */
export function startBuiltEntryPoint(
  script: string,
  args: string[],
  env: Record<string, string>,
): StartedProcess {
  return startCommand(process.execPath, [script, ...args], env);
}

/** `npm run <script>` as an operator types it (npm, its shell, then node), to test what npm does with signals. */
export function startNpmScript(script: string, args: string[], env: Record<string, string>): StartedProcess {
  return startCommand("npm", ["run", "--silent", script, ...(args.length > 0 ? ["--", ...args] : [])], env);
}

function startCommand(command: string, args: string[], env: Record<string, string>): StartedProcess {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout! }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      lines.push({ msg: text });
    }
    for (const wake of waiters) wake();
  });
  // "close", not "exit": the process has ended and its output is read to the end, so its last
  // lines (the exit line) are in `lines` when this resolves; "exit" can come before them.
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    waitForLog(match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching log line within ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        void exited.then((code) => {
          if (!waiters.has(check)) return;
          waiters.delete(check);
          clearTimeout(timer);
          reject(new Error(`process exited (${code}) before the log line; stderr: ${stderr}`));
        });
        check();
      });
    },
  };
}

/**
 * The exit code, or "still running" after 10 s (the bound for a prompt stop), when the process is
 * killed so that a failing test leaves nothing behind.
 */
export async function exitWithin10s(proc: StartedProcess): Promise<number | null | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still running">((resolve) => {
    timer = setTimeout(() => resolve("still running"), 10_000);
  });
  const code = await Promise.race([proc.exited, late]);
  clearTimeout(timer);
  if (code === "still running") proc.child.kill("SIGKILL");
  return code;
}
