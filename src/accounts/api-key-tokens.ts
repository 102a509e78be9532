import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Environment } from "./scopes";

/**
 * The key itself: "xcat_<environment>_" and 43 characters of base64url (32 random bytes). The
 * prefix tells a person (and a secret scanner) what the key is and where it works. Keys carry
 * 256 bits of randomness, so one SHA-256 is a safe stored form: there is nothing to brute-force
 * that a slow password hash would protect.
 */
const KEY_PATTERN = /^xcat_(live|test)_[A-Za-z0-9_-]{43}$/;

export interface NewKeyToken {
  token: string;
  hash: Buffer;
  prefix: string;
  lastFour: string;
}

export function keyPrefix(environment: Environment): string {
  return `xcat_${environment}_`;
}

export function generateKeyToken(environment: Environment): NewKeyToken {
  const token = keyPrefix(environment) + randomBytes(32).toString("base64url");
  return { token, hash: hashKeyToken(token), prefix: keyPrefix(environment), lastFour: token.slice(-4) };
}

export function hashKeyToken(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/** Whether the text has a key's shape; a malformed key is refused before any lookup. */
export function isWellFormedKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

/** Constant-time comparison of two stored-form hashes (equal length by construction). */
export function sameKeyHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export type BearerCredential = { kind: "none" } | { kind: "malformed" } | { kind: "key"; token: string };

/** Reads `Authorization: Bearer <key>` (scheme case-insensitive, as RFC 7235 says). */
export function bearerCredential(header: string | undefined): BearerCredential {
  if (header === undefined) return { kind: "none" };
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1] || !isWellFormedKey(match[1])) return { kind: "malformed" };
  return { kind: "key", token: match[1] };
}
