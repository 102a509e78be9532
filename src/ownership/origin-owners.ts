import type { Database } from "../db/prisma-client";
import { inTransaction, type Transaction } from "../db/transaction";
import { serviceRef } from "../events/catalogue-events";
import { emitEvents } from "../events/emit";
import type { OriginOwner } from "../generated/prisma/client";
import { Prisma } from "../generated/prisma/client";
import type { StoredReport } from "./owner-columns";

/** The verified owners of origins: claimed by a proof, found by credential, their history. */

export type OwnerMethod = "signature" | "token_file";

/** Who proved an origin: the key (an address on a chain) or the token file. */
export interface OwnerIdentity {
  method: OwnerMethod;
  address: string | null;
  chainId: string | null;
}

const identityJson = (owner: OwnerIdentity) => ({
  method: owner.method,
  address: owner.address,
  chain_id: owner.chainId,
});

/** The same key proved it again (addresses compared in the case their chain ignores). */
function sameOwner(a: OwnerIdentity, b: OwnerIdentity): boolean {
  const address = (owner: OwnerIdentity) =>
    owner.chainId?.startsWith("eip155:") ? owner.address?.toLowerCase() : owner.address;
  return a.method === b.method && address(a) === address(b);
}

export interface Claim {
  origin: string;
  owner: OwnerIdentity;
  challengeId: string;
  credentialHash: Buffer;
  now: Date;
}

/**
 * Makes the proof's key the origin's owner, inside the proof's transaction (the origin's row is
 * locked, so two proofs take turns). The same key proving again gets a new credential and nothing
 * else changes. Another key replaces the owner: the old owner's corrections and webhook endpoint
 * go, the change is kept in origin_owner_changes and announced as origin.owner_changed.
 * Returns whether the owner changed.
 */
export async function claimOrigin(tx: Transaction, claim: Claim): Promise<boolean> {
  const { origin, owner, now } = claim;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`origin-owner:${origin}`}, 0))`;
  const current = await tx.originOwner.findUnique({ where: { origin } });
  const previous = current && {
    method: current.method as OwnerMethod,
    address: current.address,
    chainId: current.chainId,
  };
  if (previous && sameOwner(previous, owner)) {
    await tx.originOwner.update({
      where: { origin },
      data: { credentialHash: new Uint8Array(claim.credentialHash), verifiedAt: now },
    });
    return false;
  }
  const fields = { ...owner, credentialHash: new Uint8Array(claim.credentialHash), verifiedAt: now };
  await tx.originOwner.upsert({
    where: { origin },
    create: { origin, ...fields },
    update: { ...fields, reported: Prisma.DbNull, reportedAt: null },
  });
  if (current?.organisationId) {
    await tx.webhookEndpoint.deleteMany({ where: { organisationId: current.organisationId } });
  }
  await tx.originOwnerChange.create({
    data: {
      origin,
      ...owner,
      previousMethod: previous?.method ?? null,
      previousAddress: previous?.address ?? null,
      challengeId: claim.challengeId,
    },
  });
  await emitEvents(tx, [
    {
      type: "origin.owner_changed",
      data: {
        origin,
        owner: identityJson(owner),
        previous_owner: previous && identityJson(previous),
        verified_at: now.toISOString(),
      },
    },
  ]);
  return true;
}

/** The origin's owner if `credentialHash` is its current credential. */
export function ownerByCredential(
  db: Database,
  origin: string,
  credentialHash: Buffer,
): Promise<OriginOwner | null> {
  return db.originOwner.findFirst({ where: { origin, credentialHash: new Uint8Array(credentialHash) } });
}

export function originOwner(db: Database, origin: string): Promise<OriginOwner | null> {
  return db.originOwner.findUnique({ where: { origin } });
}

/** Replaces the owner's report of its services (shown beside the crawled values). */
export async function saveReport(
  db: Database,
  origin: string,
  report: StoredReport,
  now: Date,
): Promise<OriginOwner> {
  return db.originOwner.update({
    where: { origin },
    data: { reported: { ...report }, reportedAt: now },
  });
}

/** Deletes the owner's webhook endpoint; false when it has none. */
export async function deleteOwnerWebhookEndpoint(db: Database, owner: OriginOwner): Promise<boolean> {
  if (!owner.organisationId) return false;
  const { count } = await db.webhookEndpoint.deleteMany({ where: { organisationId: owner.organisationId } });
  return count > 0;
}

/** The organisation an owner's webhook endpoint belongs to, made the first time. */
export async function ownerOrganisation(db: Database, origin: string): Promise<string> {
  const owner = await db.originOwner.findUniqueOrThrow({ where: { origin } });
  if (owner.organisationId) return owner.organisationId;
  const organisation = await db.organisation.upsert({
    where: { name: `owner of ${origin}` },
    create: { name: `owner of ${origin}` },
    update: {},
  });
  await db.originOwner.update({ where: { origin }, data: { organisationId: organisation.id } });
  return organisation.id;
}

interface DelistedRow {
  id: string;
  name: string;
  detail_url: string;
  source: string;
}

/**
 * Delists every listed row of every catalogue entry with an endpoint at the origin, with reason
 * owner_request (crawls leave such rows delisted; their history is kept), each with a
 * service.delisted event. Returns the delisted rows' ids.
 */
export async function deregisterOrigin(db: Database, origin: string, now: Date): Promise<string[]> {
  return inTransaction(db, async (tx) => {
    const rows = await tx.$queryRaw<DelistedRow[]>`
      UPDATE services s SET status = 'delisted', delisted_at = ${now}, delist_reason = 'owner_request', updated_at = now()
      FROM sources src
      WHERE src.id = s.source_id AND s.status = 'listed'
        AND coalesce(s.canonical_id, s.id) IN (
          SELECT coalesce(m.canonical_id, m.id) FROM endpoints e JOIN services m ON m.id = e.service_id
          WHERE url_origin(e.url) = ${origin})
      RETURNING s.id::text, s.name, s.detail_url, src.kind::text AS source`;
    await tx.originOwner.update({ where: { origin }, data: { deregisteredAt: now } });
    await emitEvents(
      tx,
      rows.map((row) => ({
        type: "service.delisted" as const,
        serviceId: row.id,
        data: { service: serviceRef({ ...row, detailUrl: row.detail_url }) },
      })),
    );
    return rows.map((row) => row.id);
  });
}
