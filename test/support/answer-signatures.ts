import { createHash } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";

/**
 * An agent's check of a signed answer, written from docs/agents.md ("Verifying answers") and
 * independent of the product's own code: the published key, the signed string, @noble/curves.
 */
export interface PublishedKeys {
  keys: { kid: string; x: string; status: string; crv: string }[];
}

export function verifyAnswer(
  keys: PublishedKeys,
  answer: { method: string; target: string; status: number; body: Uint8Array; header: string | null },
): boolean {
  const match = /^t=(\d+);kid=([0-9a-f]+);sig=([A-Za-z0-9_-]+)$/.exec(answer.header ?? "");
  if (!match) return false;
  const [, timestamp, kid, signature] = match;
  const key = keys.keys.find((candidate) => candidate.kid === kid);
  if (!key) return false;
  const digest = createHash("sha256").update(answer.body).digest("hex");
  const message = [
    "x402-catalogue-answer/v1",
    answer.method,
    answer.target,
    String(answer.status),
    digest,
    timestamp,
  ].join("\n");
  return ed25519.verify(
    Buffer.from(String(signature), "base64url"),
    Buffer.from(message),
    Buffer.from(key.x, "base64url"),
  );
}
