import { randomBytes } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KEY_FILE, loadSecretKeyRing } from "../../../src/webhooks/secret-sealing";

const ENDPOINT = "7d0c3c4e-8f43-4a4b-9a55-0d7d1f6f2a10";

describe("where the webhook secret key comes from", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  async function keyFile(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "webhook-key-"));
    dirs.push(dir);
    return path.join(dir, KEY_FILE);
  }

  it("when WEBHOOK_SECRET_KEY is unset, then a key is generated into the data directory (mode 0600) and every later start uses it", async () => {
    const file = await keyFile();
    const first = await loadSecretKeyRing({ oldKeys: [], keyFile: file });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const sealed = first.seal("whsec_one", ENDPOINT);
    const later = await loadSecretKeyRing({ oldKeys: [], keyFile: file });
    expect(later.isCurrent(sealed)).toBe(true);
    expect(later.open(sealed, ENDPOINT)).toBe("whsec_one");
  });

  it("when WEBHOOK_SECRET_KEY is set where a generated key was kept, then the kept key still reads and the set key seals", async () => {
    const file = await keyFile();
    const sealed = (await loadSecretKeyRing({ oldKeys: [], keyFile: file })).seal("whsec_two", ENDPOINT);
    const configured = await loadSecretKeyRing({ key: randomBytes(32), oldKeys: [], keyFile: file });
    expect(configured.open(sealed, ENDPOINT)).toBe("whsec_two");
    expect(configured.isCurrent(sealed)).toBe(false);
    expect(configured.isCurrent(configured.seal("whsec_two", ENDPOINT))).toBe(true);
  });

  it("when WEBHOOK_SECRET_KEY is set and no key was generated, then no key file is written", async () => {
    const file = await keyFile();
    await loadSecretKeyRing({ key: randomBytes(32), oldKeys: [], keyFile: file });
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });
});
