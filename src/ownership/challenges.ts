import type { Database } from "../db/prisma-client";
import type { Transaction } from "../db/transaction";
import type { OwnershipChallenge } from "../generated/prisma/client";
import { type NamedPayTo, type SignableMessage, signableMessages } from "./challenge-message";

/** Ownership challenges: issued, looked up by nonce or token, and used at most once. */

export interface StoredChallenge {
  id: string;
  registrationId: string;
  origin: string;
  nonce: string;
  tokenHash: Buffer;
  messages: SignableMessage[];
  issuedAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

const stored = (row: OwnershipChallenge): StoredChallenge => ({
  id: row.id,
  registrationId: row.registrationId,
  origin: row.origin,
  nonce: row.nonce,
  tokenHash: Buffer.from(row.tokenHash),
  messages: signableMessages.parse(row.messages),
  issuedAt: row.issuedAt,
  expiresAt: row.expiresAt,
  usedAt: row.usedAt,
});

/**
 * The pay_tos that the latest challenges of the origin's endpoints name (payment options read by
 * a probe, not what a listing claims): who may sign for the origin.
 */
export function originPayTos(db: Database, origin: string): Promise<NamedPayTo[]> {
  return db.$queryRaw<NamedPayTo[]>`
    SELECT DISTINCT po.network, po.pay_to AS address
    FROM endpoints e
    JOIN payment_options po ON po.endpoint_id = e.id
    WHERE url_origin(e.url) = ${origin} AND po.origin = 'probe'
      AND po.network IS NOT NULL AND po.pay_to IS NOT NULL
    ORDER BY po.network, address`;
}

export type NewChallenge = Omit<StoredChallenge, "id" | "usedAt">;

export async function createChallenge(db: Database, challenge: NewChallenge): Promise<StoredChallenge> {
  const { tokenHash, ...fields } = challenge;
  return stored(
    await db.ownershipChallenge.create({ data: { ...fields, tokenHash: new Uint8Array(tokenHash) } }),
  );
}

/** The registration's challenge with this nonce. */
export async function findChallenge(
  db: Database,
  registrationId: string,
  nonce: string,
): Promise<StoredChallenge | null> {
  const row = await db.ownershipChallenge.findFirst({ where: { registrationId, nonce } });
  return row && stored(row);
}

/** The origins whose challenges issued any of these tokens. */
export async function tokenOrigins(db: Database, tokenHashes: Buffer[]): Promise<string[]> {
  if (tokenHashes.length === 0) return [];
  const rows = await db.ownershipChallenge.findMany({
    where: { tokenHash: { in: tokenHashes.map((hash) => new Uint8Array(hash)) } },
    select: { origin: true },
    distinct: ["origin"],
  });
  return rows.map((row) => row.origin);
}

/**
 * Marks the challenge used, if it is still unused and unexpired at `now`: true for the one
 * proof that may use it (two racing proofs cannot both).
 */
export async function useChallenge(tx: Transaction, id: string, now: Date): Promise<boolean> {
  const { count } = await tx.ownershipChallenge.updateMany({
    where: { id, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return count === 1;
}
