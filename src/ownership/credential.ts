import { randomBytes } from "node:crypto";
import { hashKeyToken } from "../accounts/api-key-tokens";

/**
 * The secrets of ownership. The owner credential ("xown_" and 43 characters of base64url, 32
 * random bytes) is what a verified owner acts with; it is shown once and only its SHA-256 is kept,
 * as for API keys (src/accounts/api-key-tokens.ts). The challenge token ("xtok_" and 43
 * characters) is what an origin publishes at /.well-known/x402-catalogue.txt; it is public once
 * published, so only its hash is kept to look it up.
 */
const CREDENTIAL_PATTERN = /^xown_[A-Za-z0-9_-]{43}$/;
const TOKEN_PATTERN = /^xtok_[A-Za-z0-9_-]{43}$/;

/** The header an owner sends its credential in (Authorization carries API keys). */
export const OWNER_CREDENTIAL_HEADER = "X-Owner-Credential";

export interface NewSecret {
  text: string;
  hash: Buffer;
}

function newSecret(prefix: string): NewSecret {
  const text = prefix + randomBytes(32).toString("base64url");
  return { text, hash: hashKeyToken(text) };
}

export const newOwnerCredential = (): NewSecret => newSecret("xown_");
export const newChallengeToken = (): NewSecret => newSecret("xtok_");

/** The stored form of a credential as sent; null when it cannot be one (refused unread). */
export function ownerCredentialHash(text: string | undefined): Buffer | null {
  return text !== undefined && CREDENTIAL_PATTERN.test(text) ? hashKeyToken(text) : null;
}

/** The hashes of every token-shaped line of a published file. */
export function publishedTokenHashes(file: string): Buffer[] {
  return file
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => TOKEN_PATTERN.test(line))
    .map(hashKeyToken);
}
