import type { Database } from "../db/prisma-client";
import type { OriginOwner } from "../generated/prisma/client";
import { ownerCredentialHash } from "./credential";
import { ownerByCredential } from "./origin-owners";

/**
 * The origin's verified owner when `credential` (the X-Owner-Credential header as sent) is its
 * current ownership credential; null otherwise (none sent, malformed, another origin's, replaced).
 * Routes that let an owner act (corrections, deregistration, re-index, webhooks) ask this.
 */
export async function verifiedOwner(
  db: Database,
  origin: string,
  credential: string | undefined,
): Promise<OriginOwner | null> {
  const hash = ownerCredentialHash(credential);
  return hash === null ? null : ownerByCredential(db, origin, hash);
}
