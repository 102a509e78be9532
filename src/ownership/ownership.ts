import { randomBytes } from "node:crypto";
import { type Config, loadConfig } from "../config/config";
import type { Database } from "../db/prisma-client";
import { inTransaction } from "../db/transaction";
import type { GuardedRequestDeps } from "../probe/guarded-request";
import { type HostResolver, systemResolver } from "../probe/resolve-target";
import { type ProbeSettings, probeSettingsFromConfig } from "../probe/settings";
import { AddressPolicy } from "../probe/ssrf-guard";
import { findRegistration, type Registration } from "../registrations/registrations";
import { challengeMessages } from "./challenge-message";
import {
  createChallenge,
  findChallenge,
  originPayTos,
  type StoredChallenge,
  tokenOrigins,
  useChallenge,
} from "./challenges";
import { newChallengeToken, newOwnerCredential } from "./credential";
import { claimOrigin, type OwnerIdentity } from "./origin-owners";
import { signatureVerifies } from "./signature-proof";
import { readTokenFile } from "./token-file";

/**
 * Proving ownership of a registration's origin: a challenge is issued (sign-in-with-x messages
 * for the pay_tos its endpoints' challenges name, and a token for the origin's token file), then
 * one proof uses it: a signature by one of those pay_tos, or the token published by the origin.
 * A proof that verifies makes its key the origin's owner and returns the owner's credential.
 */

export interface OwnershipSettings {
  /** How long a challenge may be used (OWNERSHIP_CHALLENGE_TTL). */
  challengeTtlMs: number;
  /** The token file is fetched like a probe: the probes' limits and allowed networks. */
  probe: ProbeSettings;
  /** Tests point made-up host names at loopback. */
  resolve?: HostResolver;
  /** Tests move the clock past a challenge's expiry. */
  now?: () => Date;
}

export function ownershipSettingsFromConfig(config: Config): OwnershipSettings {
  return { challengeTtlMs: config.OWNERSHIP_CHALLENGE_TTL, probe: probeSettingsFromConfig(config) };
}

export interface OwnershipDeps {
  db: Database;
  challengeTtlMs: number;
  request: GuardedRequestDeps;
  now: () => Date;
}

/** Ownership with its settings; the defaults (no settings) reach public addresses only. */
export function ownershipWith(
  db: Database,
  settings: OwnershipSettings = ownershipSettingsFromConfig(loadConfig({})),
): OwnershipDeps {
  return {
    db,
    challengeTtlMs: settings.challengeTtlMs,
    request: {
      settings: settings.probe,
      policy: new AddressPolicy(settings.probe.allowedNetworks),
      resolve: settings.resolve ?? systemResolver,
    },
    now: settings.now ?? (() => new Date()),
  };
}

/** A proof or challenge refused, with the HTTP status that says why. */
export class OwnershipRefused extends Error {
  constructor(
    readonly status: 403 | 404 | 409 | 410 | 422,
    message: string,
  ) {
    super(message);
    this.name = "OwnershipRefused";
  }
}

async function registration(deps: OwnershipDeps, id: string): Promise<Registration> {
  const found = await findRegistration(deps.db, id);
  if (!found) throw new OwnershipRefused(404, `No registration with id ${id}`);
  return found;
}

export interface IssuedChallenge {
  challenge: StoredChallenge;
  /** The token to publish, shown only here. */
  token: string;
}

/** A new challenge for the registration's origin; `domain` is the catalogue's host as the client reached it. */
export async function issueChallenge(
  deps: OwnershipDeps,
  registrationId: string,
  domain: string,
): Promise<IssuedChallenge> {
  const { origin } = await registration(deps, registrationId);
  const issuedAt = deps.now();
  const expiresAt = new Date(issuedAt.getTime() + deps.challengeTtlMs);
  const nonce = randomBytes(16).toString("hex");
  const payTos = await originPayTos(deps.db, origin);
  const messages = challengeMessages(payTos, { domain, origin, nonce, issuedAt, expiresAt });
  const token = newChallengeToken();
  const challenge = await createChallenge(deps.db, {
    registrationId,
    origin,
    nonce,
    tokenHash: token.hash,
    messages,
    issuedAt,
    expiresAt,
  });
  return { challenge, token: token.text };
}

export type Proof =
  | { method: "signature"; nonce: string; address: string; signature: string }
  | { method: "token_file"; nonce: string };

export interface VerifiedProof {
  origin: string;
  owner: OwnerIdentity;
  verifiedAt: Date;
  /** Whether the proof's key replaced another owner (or was the first). */
  ownerChanged: boolean;
  /** The owner's credential, shown only here. */
  credential: string;
}

/** Checks the proof against its challenge; refuses it with the reason, or makes its key the owner. */
export async function proveOwnership(
  deps: OwnershipDeps,
  registrationId: string,
  proof: Proof,
): Promise<VerifiedProof> {
  await registration(deps, registrationId);
  const challenge = await findChallenge(deps.db, registrationId, proof.nonce);
  if (!challenge)
    throw new OwnershipRefused(404, `No ownership challenge of this registration has nonce ${proof.nonce}`);
  const now = deps.now();
  if (challenge.usedAt)
    throw new OwnershipRefused(409, "This challenge's nonce was already used; ask for a new challenge");
  if (challenge.expiresAt <= now)
    throw new OwnershipRefused(
      410,
      `This challenge expired at ${challenge.expiresAt.toISOString()}; ask for a new one`,
    );
  const owner =
    proof.method === "signature" ? await signer(challenge, proof) : await publisher(deps, challenge);
  const credential = newOwnerCredential();
  const ownerChanged = await inTransaction(deps.db, async (tx) => {
    if (!(await useChallenge(tx, challenge.id, now)))
      throw new OwnershipRefused(409, "This challenge's nonce was already used; ask for a new challenge");
    return claimOrigin(tx, {
      origin: challenge.origin,
      owner,
      challengeId: challenge.id,
      credentialHash: credential.hash,
      now,
    });
  });
  return { origin: challenge.origin, owner, verifiedAt: now, ownerChanged, credential: credential.text };
}

async function signer(
  challenge: StoredChallenge,
  proof: Extract<Proof, { method: "signature" }>,
): Promise<OwnerIdentity> {
  const candidates = challenge.messages.filter(
    (m) =>
      m.address === proof.address ||
      (m.type === "eip191" && m.address.toLowerCase() === proof.address.toLowerCase()),
  );
  if (candidates.length === 0) {
    const named = challenge.messages.map((m) => m.address).join(", ") || "none";
    throw new OwnershipRefused(
      403,
      `${proof.address} is not a pay_to the origin's payment challenges name (they name: ${named})`,
    );
  }
  for (const message of candidates) {
    if (await signatureVerifies(message, proof.signature)) {
      const address = message.type === "eip191" ? message.address.toLowerCase() : message.address;
      return { method: "signature", address, chainId: message.chain_id };
    }
  }
  throw new OwnershipRefused(
    403,
    `The signature does not verify for ${proof.address} over the challenge's message`,
  );
}

async function publisher(deps: OwnershipDeps, challenge: StoredChallenge): Promise<OwnerIdentity> {
  const file = await readTokenFile(challenge.origin, deps.request);
  if (file.kind === "unread")
    throw new OwnershipRefused(422, `The token file could not be read: ${file.reason}`);
  if (file.tokenHashes.some((hash) => hash.equals(challenge.tokenHash)))
    return { method: "token_file", address: null, chainId: null };
  const others = (await tokenOrigins(deps.db, file.tokenHashes)).filter(
    (origin) => origin !== challenge.origin,
  );
  if (others.length > 0) {
    throw new OwnershipRefused(
      403,
      `The token file of ${challenge.origin} holds a token issued for another origin (${others.join(", ")}), not this challenge's`,
    );
  }
  throw new OwnershipRefused(
    403,
    `The token file of ${challenge.origin} does not hold this challenge's token`,
  );
}
