import { createHash } from "node:crypto";

/**
 * What an answer's signature covers (docs/agents.md, "Verifying answers"): six lines joined by
 * "\n", no trailing newline —
 *
 *   x402-catalogue-answer/v1
 *   <method, upper case>
 *   <path and query exactly as requested>
 *   <status code>
 *   <SHA-256 of the body, lower-case hex>
 *   <timestamp, Unix seconds>
 *
 * The body is the bytes of the answer without content coding (what a client has after undoing
 * gzip); a HEAD or 304 answer has an empty body.
 */
export const SIGNED_STRING_VERSION = "x402-catalogue-answer/v1";

/** The response header carrying the signature: `t=<seconds>;kid=<key id>;sig=<base64url>`. */
export const SIGNATURE_HEADER = "X-Catalogue-Signature";

export interface SignedAnswer {
  method: string;
  target: string;
  status: number;
  /** bodyDigest of the body. */
  bodyDigest: string;
  timestamp: number;
}

export function bodyDigest(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}

export function signedString({
  method,
  target,
  status,
  bodyDigest: digest,
  timestamp,
}: SignedAnswer): string {
  return [
    SIGNED_STRING_VERSION,
    method.toUpperCase(),
    target,
    String(status),
    digest,
    String(timestamp),
  ].join("\n");
}

export interface SignatureHeader {
  timestamp: number;
  kid: string;
  signature: Buffer;
}

export function formatSignatureHeader({ timestamp, kid, signature }: SignatureHeader): string {
  return `t=${timestamp};kid=${kid};sig=${signature.toString("base64url")}`;
}

/** The header's parts, or null when it is not in the documented form. */
export function parseSignatureHeader(value: string): SignatureHeader | null {
  const match = /^t=(\d{1,12});kid=([0-9a-f]{16});sig=([A-Za-z0-9_-]{86})$/.exec(value.trim());
  if (!match) return null;
  return {
    timestamp: Number(match[1]),
    kid: String(match[2]),
    signature: Buffer.from(String(match[3]), "base64url"),
  };
}
