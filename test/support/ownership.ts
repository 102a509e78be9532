import { ed25519 } from "@noble/curves/ed25519.js";
import { encodeBase58 } from "@x402/extensions/sign-in-with-x";
import request from "supertest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Logger } from "../../src/logging/logger";
import { OWNER_CREDENTIAL_HEADER } from "../../src/ownership/credential";
import { submitRegistration } from "../../src/registrations/registrations";
import { SecretKeyRing } from "../../src/webhooks/secret-keys";
import { createTestApp, type TestApp } from "./app";
import { seedServices } from "./catalogue";
import type { TestDatabase } from "./database";
import { testProbeSettings } from "./probe";
import { ALLOWED_NETWORKS, madeUpNames } from "./webhooks";
import { X402Fixture } from "./x402-fixture";

export const BASE = "eip155:8453";
export const SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

/** A key that signs challenge messages: its address and its signature of a message. */
export interface Signer {
  address: string;
  sign(message: string): string | Promise<string>;
}

/** A Solana key pair: its address (the base58 public key), signing with Ed25519 (base58). */
export function solanaKey(): Signer {
  const secretKey = ed25519.utils.randomSecretKey();
  return {
    address: encodeBase58(ed25519.getPublicKey(secretKey)),
    sign: (message) => encodeBase58(ed25519.sign(new TextEncoder().encode(message), secretKey)),
  };
}

/** A viem local account, signing with EIP-191 (personal_sign). */
export function evmKey(): Signer {
  const account = privateKeyToAccount(generatePrivateKey());
  return { address: account.address, sign: (message) => account.signMessage({ message }) };
}

/** One loopback origin with a registration and a service whose endpoint's probed challenge names `payTos`. */
export interface SellerOrigin {
  site: X402Fixture;
  origin: string;
  registrationId: string;
  serviceId: string;
  detailUrl: string;
}

export async function sellerOrigin(
  database: TestDatabase,
  name: string,
  payTos: Array<{ network: string; address: string }>,
): Promise<SellerOrigin> {
  const site = await new X402Fixture().start();
  const { registration } = await submitRegistration(
    database.db,
    { kind: "origin", origin: site.origin },
    { kind: "anonymous", address: "127.0.0.1" },
  );
  const [serviceId] = await seedServices(database.db, [
    {
      name,
      domain: "127.0.0.1",
      description: `${name} as crawled`,
      endpoints: [{ method: "GET", url: site.url("/paid") }],
    },
  ]);
  const endpoint = await database.db.endpoint.findFirstOrThrow({ where: { serviceId } });
  await database.db.paymentOption.createMany({
    data: payTos.map((payTo, position) => ({
      endpointId: endpoint.id,
      origin: "probe" as const,
      position,
      scheme: "exact",
      network: payTo.network,
      payTo: payTo.address,
      warnings: [],
      observedAt: new Date(),
    })),
  });
  const { detailUrl } = await database.db.service.findUniqueOrThrow({ where: { id: serviceId } });
  return { site, origin: site.origin, registrationId: registration.id, serviceId, detailUrl };
}

/** The app with loopback token files, loopback webhook URLs, a movable clock and 60 s challenges. */
export function ownershipApp(
  database: TestDatabase,
  clock: { now: Date },
  secretKeys = SecretKeyRing.ephemeral(),
  logger?: Logger,
): TestApp {
  return createTestApp(database, {
    logger,
    ownership: { challengeTtlMs: 60_000, probe: testProbeSettings(), now: () => clock.now },
    webhooks: { allowedNetworks: ALLOWED_NETWORKS, secretKeys, resolve: madeUpNames },
  });
}

export interface IssuedChallenge {
  nonce: string;
  messages: Array<{ address: string; chain_id: string; type: string; message: string }>;
  token_file: { url: string; token: string };
  expires_at: string;
}

export async function askChallenge(api: TestApp, registrationId: string): Promise<IssuedChallenge> {
  const answer = await request(api.app)
    .post(`/v1/registrations/${registrationId}/ownership-challenge`)
    .expect(201);
  return answer.body as IssuedChallenge;
}

export function prove(api: TestApp, registrationId: string, body: object) {
  return request(api.app).post(`/v1/registrations/${registrationId}/ownership-proof`).send(body);
}

/** The message of the challenge that `address` signs. */
export function messageFor(challenge: IssuedChallenge, address: string): string {
  const found = challenge.messages.find((m) => m.address.toLowerCase() === address.toLowerCase());
  if (!found) throw new Error(`the challenge names no ${address}`);
  return found.message;
}

export const originPath = (origin: string) => encodeURIComponent(origin);

/** A request as the origin's owner. */
export function asOwner(test: request.Test, credential: string): request.Test {
  return test.set(OWNER_CREDENTIAL_HEADER, credential);
}

/**
 * A signature proof of the challenge by `signer`: over the message of `over` (default its own
 * address's), sending `claimed` as the address (default its own).
 */
export async function signatureProof(
  challenge: IssuedChallenge,
  signer: Signer,
  { over = signer.address, claimed = signer.address } = {},
) {
  const signature = await signer.sign(messageFor(challenge, over));
  return { nonce: challenge.nonce, method: "signature", address: claimed, signature };
}

/** The origin's owner by a signature of its pay_to: the credential it is given. */
export async function becomeOwner(api: TestApp, seller: SellerOrigin, signer: Signer): Promise<string> {
  const challenge = await askChallenge(api, seller.registrationId);
  const answer = await prove(api, seller.registrationId, await signatureProof(challenge, signer)).expect(200);
  return answer.body.credential as string;
}
