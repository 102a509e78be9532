import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { keptSecret } from "../config/kept-secret";
import type { Logger } from "../logging/logger";

/** The superuser the product connects as. */
export const SUPERUSER = "postgres";

/**
 * Each data directory has its own random password, kept beside the server's data (not inside
 * it: initdb wants an empty directory) in a file only its owner can read. The server listens on
 * 127.0.0.1 only; the password keeps other local users out.
 */
export const PASSWORD_FILE = "embedded-postgres.password";

/**
 * The password of data directories that have no password file: one value for every install,
 * published in the source. Such a directory is moved to its own password at its next start.
 */
const SHARED_PASSWORD = "catalogue-embedded";

/** The data directory's password, generated on its first start. */
export function embeddedPassword(dataDir: string): Promise<string> {
  return keptSecret(path.join(dataDir, PASSWORD_FILE));
}

/**
 * Postgres's SCRAM-SHA-256 verifier of a password (what it stores for it), so that ALTER ROLE
 * never carries the password itself: Postgres writes a failing statement to its log.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  const b64 = (bytes: Buffer) => bytes.toString("base64");
  return `SCRAM-SHA-256$${iterations}:${b64(salt)}$${b64(storedKey)}:${b64(serverKey)}`;
}

async function connect(port: number, password: string, database: string): Promise<pg.Client> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: SUPERUSER, password, database });
  client.on("error", () => {}); // a dropped connection surfaces as a rejected query instead
  await client.connect();
  return client;
}

const INVALID_PASSWORD = "28P01";

/**
 * A superuser connection. When the password is refused and the shared password is accepted, the
 * directory is still on the shared password: the role gets `password` (the directory's own,
 * already kept in its file) before anything else is done.
 */
export async function connectAsSuperuser(
  port: number,
  password: string,
  log: Logger,
  database = "postgres",
): Promise<pg.Client> {
  try {
    return await connect(port, password, database);
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_PASSWORD) throw error;
    const client = await connect(port, SHARED_PASSWORD, database).catch(() => {
      throw error;
    });
    try {
      await client.query(
        `ALTER ROLE ${client.escapeIdentifier(SUPERUSER)} PASSWORD ${client.escapeLiteral(scramVerifier(password))}`,
      );
    } catch (altering) {
      await client.end();
      throw altering;
    }
    log.warn(
      { passwordFile: PASSWORD_FILE },
      "embedded postgres: the data directory had the shared password; it now has its own, kept in its password file",
    );
    return client;
  }
}
