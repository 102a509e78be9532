import { execFile } from "node:child_process";
import { access, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { PASSWORD_FILE } from "../../src/db/embedded-postgres-password";

/** Written into the prepared directory once it is initialised, migrated and stopped. */
export const PREPARED_MARKER = "prepared";

const WAIT_MS = 120_000;

async function waitUntilPrepared(dir: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await access(path.join(dir, PREPARED_MARKER));
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`the prepared data directory ${dir} was not ready in time`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A new CATALOGUE_DATA_DIR whose embedded database is already initialised and migrated, as an
 * earlier `npm start` leaves it: for tests of what the product does with its processes, not of
 * its first start (start.test.ts's first test starts on an empty directory). Copied with
 * `cp -a` so that, as root, the files stay owned by the postgres user.
 */
export async function preparedDataDir(prefix: string): Promise<string> {
  const source = inject("preparedDataDir");
  await waitUntilPrepared(source);
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  // The server's data and its password, which lives beside it.
  for (const name of ["postgres", PASSWORD_FILE]) {
    await promisify(execFile)("cp", ["-a", path.join(source, name), path.join(dir, name)]);
  }
  return dir;
}
