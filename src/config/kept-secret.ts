import { randomBytes, randomUUID } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A random value generated once and kept in a file only its owner can read (mode 0600): the
 * embedded Postgres password, and the webhook secret key when WEBHOOK_SECRET_KEY is unset. Every
 * later call, from any process, reads the same value. Creation is atomic (written to a temporary
 * file, then linked to its name, which fails if another process got there first), so two
 * processes starting together never keep different values.
 */
export async function keptSecret(file: string, bytes = 32): Promise<string> {
  const existing = await readKeptSecret(file);
  if (existing !== null) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${randomBytes(bytes).toString("base64url")}\n`, { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  const kept = await readKeptSecret(file);
  if (kept === null) throw new Error(`${file} is empty`);
  return kept;
}

/** The kept value, or null when the file does not exist yet. */
export async function readKeptSecret(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, "utf8")).trim();
    return text === "" ? null : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * A key given by a setting, or else the one kept in `file` (generated at the first start). With a
 * configured key, a key file left by earlier starts joins the old keys, so moving from the
 * generated key to a configured one loses nothing the generated key sealed or signed.
 */
export async function configuredOrKeptKey(
  configured: Buffer | undefined,
  oldKeys: readonly Buffer[],
  file: string,
): Promise<{ current: Buffer; old: Buffer[] }> {
  const decode = (text: string) => Buffer.from(text, "base64url");
  if (!configured) return { current: decode(await keptSecret(file)), old: [...oldKeys] };
  const kept = await readKeptSecret(file);
  return { current: configured, old: kept === null ? [...oldKeys] : [...oldKeys, decode(kept)] };
}
