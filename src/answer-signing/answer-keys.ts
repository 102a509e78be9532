import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  sign,
} from "node:crypto";

/**
 * The Ed25519 keys that sign the catalogue's answers. The current key signs; the keys it replaced
 * are still published (as `retiring`) so answers signed before a rotation keep verifying while
 * clients pick up the new key. Keys are 32-byte seeds (RFC 8032 private keys); only public keys
 * ever leave this module.
 */

/** PKCS#8 prefix of an Ed25519 private key: the 32-byte seed follows it. */
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");

export interface PublishedKey {
  kid: string;
  kty: "OKP";
  crv: "Ed25519";
  alg: "EdDSA";
  use: "sig";
  /** The 32-byte public key, base64url (RFC 8037). */
  x: string;
  status: "current" | "retiring";
}

interface AnswerKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: Buffer;
}

function answerKey(seed: Buffer): AnswerKey {
  if (seed.length !== 32) throw new Error("an answer signing key is a 32-byte Ed25519 seed");
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, seed]),
    format: "der",
    type: "pkcs8",
  });
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const publicKey = Buffer.from(String(jwk.x), "base64url");
  return { kid: keyId(publicKey), privateKey, publicKey };
}

/** A short, stable name of a public key: the first 16 hex digits of its SHA-256. */
export function keyId(publicKey: Uint8Array): string {
  return createHash("sha256").update(publicKey).digest("hex").slice(0, 16);
}

export class AnswerKeyRing {
  private readonly current: AnswerKey;
  private readonly retiring: AnswerKey[];

  constructor(currentSeed: Buffer, oldSeeds: readonly Buffer[] = []) {
    this.current = answerKey(currentSeed);
    this.retiring = oldSeeds.map(answerKey).filter((key) => key.kid !== this.current.kid);
  }

  /** A key of this process alone (tests, apps that publish nothing). */
  static ephemeral(): AnswerKeyRing {
    return new AnswerKeyRing(randomBytes(32));
  }

  get currentKeyId(): string {
    return this.current.kid;
  }

  /** The Ed25519 signature of `message` with the current key. */
  sign(message: Buffer | string): Buffer {
    return sign(null, typeof message === "string" ? Buffer.from(message) : message, this.current.privateKey);
  }

  /** The public keys, current first, as JWKs (RFC 8037). */
  published(): PublishedKey[] {
    const jwk = (key: AnswerKey, status: PublishedKey["status"]): PublishedKey => ({
      kid: key.kid,
      kty: "OKP",
      crv: "Ed25519",
      alg: "EdDSA",
      use: "sig",
      x: key.publicKey.toString("base64url"),
      status,
    });
    return [jwk(this.current, "current"), ...this.retiring.map((key) => jwk(key, "retiring"))];
  }
}
