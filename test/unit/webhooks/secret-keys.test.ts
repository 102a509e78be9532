import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, SecretKeyRing, UnknownSecretKeyError } from "../../../src/webhooks/secret-keys";

const ENDPOINT = "7d0c3c4e-8f43-4a4b-9a55-0d7d1f6f2a10";
const OTHER_ENDPOINT = "0b1e4d6a-2c3f-4e5a-8b7c-9d0e1f2a3b4c";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("sealing webhook secrets", () => {
  it("when a secret is sealed, then the stored value holds no part of it and opens to it again", () => {
    const keys = SecretKeyRing.ephemeral();
    const sealed = keys.seal(SECRET, ENDPOINT);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("whsec_");
    expect(sealed).not.toContain(SECRET.slice(6, 20));
    expect(keys.seal(SECRET, ENDPOINT)).not.toBe(sealed); // a fresh IV each time
    expect(keys.open(sealed, ENDPOINT)).toBe(SECRET);
  });

  it("when a sealed secret is moved to another endpoint or altered, then it does not open", () => {
    const keys = SecretKeyRing.ephemeral();
    const sealed = keys.seal(SECRET, ENDPOINT);
    expect(() => keys.open(sealed, OTHER_ENDPOINT)).toThrow();
    const parts = sealed.split(":");
    const ciphertext = Buffer.from(parts[4] ?? "", "base64url");
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[4] = ciphertext.toString("base64url");
    expect(() => keys.open(parts.join(":"), ENDPOINT)).toThrow();
  });

  it("when the key is replaced and the old one kept, then old values open but are not current; without it they name their key", () => {
    const oldKey = randomBytes(32);
    const sealed = new SecretKeyRing(oldKey).seal(SECRET, ENDPOINT);
    const rotated = new SecretKeyRing(randomBytes(32), [oldKey]);
    expect(rotated.open(sealed, ENDPOINT)).toBe(SECRET);
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.isCurrent(rotated.seal(SECRET, ENDPOINT))).toBe(true);
    const stranger = SecretKeyRing.ephemeral();
    expect(() => stranger.open(sealed, ENDPOINT)).toThrow(UnknownSecretKeyError);
    expect(() => stranger.open(sealed, ENDPOINT)).toThrow(/WEBHOOK_SECRET_KEY/);
  });
});
