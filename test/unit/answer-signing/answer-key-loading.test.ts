import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ed25519 } from "@noble/curves/ed25519.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAnswerKeys } from "../../../src/answer-signing/answer-key-loading";
import { AnswerKeyRing } from "../../../src/answer-signing/answer-keys";

describe("answer signing keys", () => {
  let dir: string;
  let keyFile: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "answer-keys-"));
    keyFile = path.join(dir, "answer-signing.key");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("when no key is configured, then one is generated once, kept with mode 0600, and read again at the next start", async () => {
    const first = await loadAnswerKeys({ oldKeys: [], keyFile });
    const second = await loadAnswerKeys({ oldKeys: [], keyFile });
    expect(second.currentKeyId).toBe(first.currentKeyId);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  });

  it("when a key is configured after a generated one, then the generated key is published as retiring", async () => {
    const generated = await loadAnswerKeys({ oldKeys: [], keyFile });
    const configured = await loadAnswerKeys({ key: Buffer.alloc(32, 1), oldKeys: [], keyFile });
    expect(configured.currentKeyId).toBe(new AnswerKeyRing(Buffer.alloc(32, 1)).currentKeyId);
    expect(configured.published().map((key) => [key.kid, key.status])).toEqual([
      [configured.currentKeyId, "current"],
      [generated.currentKeyId, "retiring"],
    ]);
  });

  it("when an answer is signed, then the signature is the RFC 8032 one of the seed's key", () => {
    const seed = Buffer.alloc(32, 3);
    const ring = new AnswerKeyRing(seed);
    const publicKey = ed25519.getPublicKey(seed);
    expect(ring.published()[0]?.x).toBe(Buffer.from(publicKey).toString("base64url"));
    expect(ed25519.verify(ring.sign("message"), Buffer.from("message"), publicKey)).toBe(true);
    expect(ed25519.verify(ring.sign("message"), Buffer.from("massage"), publicKey)).toBe(false);
  });
});
