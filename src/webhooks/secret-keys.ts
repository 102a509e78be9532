import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Webhook signing secrets are kept sealed (AES-256-GCM) in the database, so a dump or a read-only
 * leak of it holds no usable secret. A sealed value reads `sealed:v1:<key id>:<iv>:<ciphertext>:<tag>`
 * (base64url parts); the key id is a hash of the key, so a value names the key that opens it and
 * keys can be rotated (the old ones kept for reading). The endpoint's id is the associated data:
 * a sealed secret copied onto another endpoint does not open.
 */

const PREFIX = "sealed:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Thrown when a sealed secret names a key this process was not given. */
export class UnknownSecretKeyError extends Error {
  constructor(readonly keyId: string) {
    super(
      `a webhook secret is sealed with a key this process does not have (key id ${keyId}): give every ` +
        "process the same WEBHOOK_SECRET_KEY, and the keys it replaced in WEBHOOK_SECRET_OLD_KEYS",
    );
    this.name = "UnknownSecretKeyError";
  }
}

export function secretKeyId(key: Buffer): string {
  return createHash("sha256")
    .update("x402-catalogue webhook secret key\0")
    .update(key)
    .digest("hex")
    .slice(0, 16);
}

/** Whether a stored secret is sealed at all (not a plain `whsec_…` value). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The current key seals; it and the old keys open. */
export class SecretKeyRing {
  private readonly currentId: string;
  private readonly keys: Map<string, Buffer>;

  constructor(
    private readonly current: Buffer,
    old: readonly Buffer[] = [],
  ) {
    if (current.length !== 32) throw new Error("a webhook secret key is 32 bytes");
    this.currentId = secretKeyId(current);
    this.keys = new Map([...old, current].map((key) => [secretKeyId(key), key]));
  }

  /** A key of this process alone: for tests and apps that never share their endpoints. */
  static ephemeral(): SecretKeyRing {
    return new SecretKeyRing(randomBytes(32));
  }

  seal(secret: string, endpointId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.current, iv);
    cipher.setAAD(Buffer.from(endpointId));
    const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString("base64url"));
    return `${PREFIX}${this.currentId}:${parts.join(":")}`;
  }

  open(sealed: string, endpointId: string): string {
    if (!isSealed(sealed)) throw new Error("the webhook secret is not sealed");
    const [keyId = "", iv = "", ciphertext = "", tag = ""] = sealed.slice(PREFIX.length).split(":");
    const key = this.keys.get(keyId);
    if (!key) throw new UnknownSecretKeyError(keyId);
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }

  /** Sealed with the current key: nothing to re-seal. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.currentId}:`);
  }
}
