import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, open, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { Logger } from "../logging/logger";
import {
  assertReachable,
  type PostgresBinaries,
  postgresBinaries,
  postgresSystemUser,
  type SystemUser,
} from "./embedded-postgres-binaries";
import { connectAsSuperuser, embeddedPassword, SUPERUSER } from "./embedded-postgres-password";
import { EmbeddedServerUsers, processAlive, sleep } from "./embedded-postgres-users";

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
  /** True when the server was already running (another process of ours started it) and we joined it. */
  attached: boolean;
  /** Leaves the server; the last process using it stops it. */
  stop(): Promise<void>;
  /** Calls back once if the server goes away while we still use it (stopped or killed by someone else). */
  onLost(callback: () => void): void;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 8_000;
const WATCH_INTERVAL_MS = 2_000;

interface ServerProcess {
  pid: number;
  port: number;
}

/** The running server of a data directory, from the postmaster.pid Postgres keeps in it. */
async function runningServer(databaseDir: string): Promise<ServerProcess | null> {
  const text = await readFile(path.join(databaseDir, "postmaster.pid"), "utf8").catch(() => null);
  const lines = text?.split("\n") ?? [];
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !processAlive(pid)) return null;
  return { pid, port };
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

async function ensureDatabase(port: number, database: string, password: string, log: Logger): Promise<void> {
  const client = await connectAsSuperuser(port, password, log);
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

function runToEnd(child: ChildProcess, what: string): Promise<void> {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${what} failed (exit ${code}): ${output.trim().slice(-500)}`)),
    );
  });
}

async function initialise(
  binaries: PostgresBinaries,
  databaseDir: string,
  user: SystemUser | null,
  log: Logger,
  password: string,
): Promise<void> {
  log.info({ databaseDir }, "initialising embedded postgres data directory");
  await mkdir(databaseDir, { recursive: true });
  // initdb reads the password from a file it can open (as root it runs as `postgres`).
  const passwordFile = path.join(path.dirname(databaseDir), ".initdb-password");
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) {
      await chown(databaseDir, user.uid, user.gid);
      await chown(passwordFile, user.uid, user.gid);
    }
    const args = [
      `--pgdata=${databaseDir}`,
      "--auth=scram-sha-256",
      `--username=${SUPERUSER}`,
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--no-sync",
    ];
    await runToEnd(spawn(binaries.initdb, args, { stdio: ["ignore", "pipe", "pipe"], ...user }), "initdb");
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Starts the server in its own session (detached), so that it outlives the process that
 * started it while other processes still use it, and a Ctrl-C in that process's terminal does
 * not reach it: the last user stops it. Its messages go to postgres.log beside the data.
 */
async function launch(
  binaries: PostgresBinaries,
  options: EmbeddedPostgresOptions,
  databaseDir: string,
  user: SystemUser | null,
  port: number,
  password: string,
): Promise<ServerProcess> {
  const logFile = await open(path.join(options.dataDir, "postgres.log"), "a");
  const flags = [
    "-c",
    "listen_addresses=127.0.0.1",
    // No unix socket: its default directory is often not writable by the postgres user.
    "-c",
    "unix_socket_directories=",
    ...(options.durable === false
      ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
      : []),
  ];
  const child = spawn(binaries.postgres, ["-D", databaseDir, "-p", String(port), ...flags], {
    detached: true,
    stdio: ["ignore", logFile.fd, logFile.fd],
    ...user,
  });
  let exited = false;
  let spawnError: Error | null = null;
  child.once("error", (error) => {
    spawnError = error;
  });
  child.once("exit", () => {
    exited = true;
  });
  child.unref();
  await logFile.close();
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (spawnError) throw spawnError;
    if (exited) {
      const tail = (await readFile(path.join(options.dataDir, "postgres.log"), "utf8").catch(() => ""))
        .trim()
        .split("\n")
        .slice(-3)
        .join(" | ");
      throw new Error(`embedded postgres exited while starting: ${tail}`);
    }
    try {
      await ensureDatabase(port, options.database, password, options.logger);
      return { pid: child.pid as number, port };
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

function signalIfAlive(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Fast shutdown (running transactions roll back), then an immediate one if it lingers. */
async function stopServer(server: ServerProcess): Promise<void> {
  signalIfAlive(server.pid, "SIGINT");
  for (let waited = 0; processAlive(server.pid); waited += 50) {
    if (waited === STOP_TIMEOUT_MS) signalIfAlive(server.pid, "SIGQUIT");
    await sleep(50);
  }
}

/**
 * A real Postgres 17 shipped in npm, with data kept in `dataDir` across restarts, shared by every
 * process of ours that uses the same directory (`npm start`, `npm run crawl`, `npm run worker`):
 * the first starts it, the others join it, and it runs until the last of them leaves. A server
 * left running by a process that was killed is joined too.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const log = options.logger.child({ component: "embedded-postgres" });
  const dataDir = path.resolve(options.dataDir);
  const databaseDir = path.join(dataDir, "postgres");
  const users = new EmbeddedServerUsers(dataDir);
  const started = Date.now();
  await mkdir(dataDir, { recursive: true });

  const { server, attached, password } = await users.withLock(async () => {
    const password = await embeddedPassword(dataDir);
    const running = await runningServer(databaseDir);
    if (running) {
      const others = await users.others();
      await ensureDatabase(running.port, options.database, password, log);
      await users.join();
      if (others.length > 0)
        log.info(
          { port: running.port, users: others },
          "using the embedded postgres of a running catalogue process",
        );
      else
        log.warn(
          { port: running.port, pid: running.pid },
          "using an embedded postgres left running by an earlier process",
        );
      return { server: running, attached: true, password };
    }
    const binaries = postgresBinaries();
    const user = await postgresSystemUser();
    if (user) {
      // As root the server runs as `postgres`, which must be able to enter the data directory.
      await chmod(dataDir, 0o755);
      assertReachable(user, binaries, dataDir);
    }
    if (!existsSync(path.join(databaseDir, "PG_VERSION")))
      await initialise(binaries, databaseDir, user, log, password);
    const port = await choosePort(options.preferredPort, log);
    const launched = await launch(
      binaries,
      { ...options, dataDir, logger: log },
      databaseDir,
      user,
      port,
      password,
    );
    await users.join();
    log.info({ port, databaseDir, ms: Date.now() - started }, "embedded postgres ready");
    return { server: launched, attached: false, password };
  });

  let leaving = false;
  // Last resort when the process exits without a clean stop: a server nobody uses would hold
  // the data directory until the next start joins it.
  // The server may already be gone (stopped underneath us): an 'exit' handler that throws would
  // end the process on an "uncaught error" line instead of its exit code.
  const leaveOnExit = () => {
    if (!leaving && !users.leaveSync()) signalIfAlive(server.pid, "SIGINT");
  };
  process.once("exit", leaveOnExit);
  return {
    url: `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${server.port}/${options.database}`,
    port: server.port,
    attached,
    async stop() {
      if (leaving) return;
      leaving = true;
      process.removeListener("exit", leaveOnExit);
      await users.withLock(async () => {
        await users.leave();
        const others = await users.others();
        if (!processAlive(server.pid)) return;
        if (others.length > 0) {
          log.info({ users: others }, "embedded postgres left running for the processes still using it");
          return;
        }
        await stopServer(server);
        log.info("embedded postgres stopped");
      });
    },
    onLost(callback) {
      const timer = setInterval(() => {
        if (leaving || processAlive(server.pid)) return;
        clearInterval(timer);
        callback();
      }, WATCH_INTERVAL_MS);
      timer.unref();
    },
  };
}
