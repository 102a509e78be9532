import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import {
  askChallenge,
  asOwner,
  BASE,
  becomeOwner,
  evmKey,
  messageFor,
  originPath,
  ownershipApp,
  prove,
  type SellerOrigin,
  SOLANA,
  sellerOrigin,
  signatureProof,
  solanaKey,
} from "../../support/ownership";

describe("proving ownership of a registered origin", () => {
  let database: TestDatabase;
  let api: TestApp;
  let alpha: SellerOrigin;
  let beta: SellerOrigin;
  const clock = { now: new Date("2026-11-28T03:00:00.000Z") };
  const payTo = evmKey();
  const solanaPayTo = solanaKey();
  const stranger = evmKey();

  const ownerOf = async (origin: string) =>
    (
      await request(api.app)
        .get(`/v1/origin-owners/${originPath(origin)}`)
        .expect(200)
    ).body;
  const ownerChanges = () =>
    database.db.event.findMany({ where: { type: "origin.owner_changed" }, orderBy: { seq: "asc" } });

  beforeAll(async () => {
    database = await createTestDatabase();
    alpha = await sellerOrigin(database, "Alpha", [
      { network: BASE, address: payTo.address.toLowerCase() },
      { network: SOLANA, address: solanaPayTo.address },
    ]);
    beta = await sellerOrigin(database, "Beta", []);
    api = ownershipApp(database, clock);
  });
  afterAll(async () => {
    await api.close();
    await alpha.site.stop();
    await beta.site.stop();
    await database.drop();
  });

  it("when a challenge is asked, then it has a sign-in-with-x message per pay_to and a token for the origin's file", async () => {
    const challenge = await askChallenge(api, alpha.registrationId);
    expect(challenge.messages.map((m) => [m.address, m.chain_id, m.type])).toEqual([
      [payTo.address, BASE, "eip191"],
      [solanaPayTo.address, SOLANA, "ed25519"],
    ]);
    const evm = messageFor(challenge, payTo.address);
    expect(evm).toMatch(/^127\.0\.0\.1:\d+ wants you to sign in with your Ethereum account:\n0x/);
    expect(evm).toContain(`URI: ${alpha.origin}`);
    expect(evm).toContain(`Nonce: ${challenge.nonce}`);
    expect(evm).toContain("Expiration Time: 2026-11-28T03:01:00.000Z");
    expect(messageFor(challenge, solanaPayTo.address)).toContain("sign in with your Solana account");
    expect(challenge.token_file.url).toBe(`${alpha.origin}/.well-known/x402-catalogue.txt`);
    expect(challenge.token_file.token).toMatch(/^xtok_/);
  });

  it("when the challenge's pay_to signs with EIP-191, then the origin has that owner and a credential, and it is an event", async () => {
    const challenge = await askChallenge(api, alpha.registrationId);
    const answer = await prove(api, alpha.registrationId, await signatureProof(challenge, payTo)).expect(200);
    expect(answer.body).toMatchObject({
      origin: alpha.origin,
      owner: { method: "signature", address: payTo.address.toLowerCase(), chain_id: BASE },
      owner_changed: true,
    });
    expect(answer.body.credential).toMatch(/^xown_[A-Za-z0-9_-]{43}$/);
    expect(await ownerOf(alpha.origin)).toMatchObject({
      owner_verified: true,
      owner: { address: payTo.address.toLowerCase() },
    });
    const [event] = await ownerChanges();
    expect(event?.data).toMatchObject({
      origin: alpha.origin,
      previous_owner: null,
      owner: { method: "signature" },
    });
    expect(await database.db.originOwnerChange.count({ where: { origin: alpha.origin } })).toBe(1);
  });

  it("when the same nonce is sent again, then it is refused as used (409)", async () => {
    const challenge = await askChallenge(api, alpha.registrationId);
    const body = await signatureProof(challenge, payTo);
    await prove(api, alpha.registrationId, body).expect(200);
    const replay = await prove(api, alpha.registrationId, body).expect(409);
    expect(replay.body.message).toMatch(/already used/);
  });

  it("when an address the challenge does not name signs, then it is refused (403) and the owner stays", async () => {
    const challenge = await askChallenge(api, alpha.registrationId);
    const wrong = await prove(
      api,
      alpha.registrationId,
      await signatureProof(challenge, stranger, { over: payTo.address }),
    ).expect(403);
    expect(wrong.body.message).toMatch(/is not a pay_to/);
    const forged = await prove(
      api,
      alpha.registrationId,
      await signatureProof(challenge, stranger, { over: payTo.address, claimed: payTo.address }),
    ).expect(403);
    expect(forged.body.message).toMatch(/does not verify/);
    expect((await ownerOf(alpha.origin)).owner.address).toBe(payTo.address.toLowerCase());
  });

  it("when the challenge has expired, then a valid signature is refused (410)", async () => {
    const challenge = await askChallenge(api, alpha.registrationId);
    const body = await signatureProof(challenge, payTo);
    clock.now = new Date(clock.now.getTime() + 60_000);
    try {
      const expired = await prove(api, alpha.registrationId, body).expect(410);
      expect(expired.body.message).toMatch(/expired/);
    } finally {
      clock.now = new Date(clock.now.getTime() - 60_000);
    }
  });

  it("when another key of the origin signs, then ownership moves only once its proof verifies, and the change is an event", async () => {
    const oldCredential = await becomeOwner(api, alpha, payTo);
    const challenge = await askChallenge(api, alpha.registrationId);
    const before = (await ownerChanges()).length;
    const over = { over: solanaPayTo.address, claimed: solanaPayTo.address };
    await prove(api, alpha.registrationId, await signatureProof(challenge, solanaKey(), over)).expect(403);
    expect((await ownerOf(alpha.origin)).owner.method).toBe("signature");
    expect((await ownerOf(alpha.origin)).owner.chain_id).toBe(BASE);

    const moved = await prove(api, alpha.registrationId, await signatureProof(challenge, solanaPayTo)).expect(
      200,
    );
    expect(moved.body).toMatchObject({
      owner: { address: solanaPayTo.address, chain_id: SOLANA },
      owner_changed: true,
    });
    const events = await ownerChanges();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)?.data).toMatchObject({
      owner: { address: solanaPayTo.address },
      previous_owner: { address: payTo.address.toLowerCase(), chain_id: BASE },
    });
    const report = { description: "mine" };
    await asOwner(request(api.app).put(`/v1/origin-owners/${originPath(alpha.origin)}/report`), oldCredential)
      .send(report)
      .expect(403);
    await asOwner(
      request(api.app).put(`/v1/origin-owners/${originPath(alpha.origin)}/report`),
      moved.body.credential,
    )
      .send(report)
      .expect(200);
  });

  it("when the origin serves the challenge's token, then the token file proves it", async () => {
    const challenge = await askChallenge(api, beta.registrationId);
    expect(challenge.messages).toEqual([]);
    beta.site.set("/.well-known/x402-catalogue.txt", {
      status: 200,
      body: `# x402 catalogue\n${challenge.token_file.token}\n`,
    });
    const answer = await prove(api, beta.registrationId, {
      nonce: challenge.nonce,
      method: "token_file",
    }).expect(200);
    expect(answer.body.owner).toEqual({ method: "token_file", address: null, chain_id: null });
    expect(beta.site.requests.at(-1)?.path).toBe("/.well-known/x402-catalogue.txt");
  });

  it("when an origin's file holds a token issued for another origin, then the proof is refused (403) naming that", async () => {
    const forBeta = await askChallenge(api, beta.registrationId);
    const forAlpha = await askChallenge(api, alpha.registrationId);
    alpha.site.set("/.well-known/x402-catalogue.txt", { status: 200, body: forBeta.token_file.token });
    const refused = await prove(api, alpha.registrationId, {
      nonce: forAlpha.nonce,
      method: "token_file",
    }).expect(403);
    expect(refused.body.message).toContain(`issued for another origin (${beta.origin})`);
    alpha.site.set("/.well-known/x402-catalogue.txt", { status: 404, body: "" });
    const missing = await prove(api, alpha.registrationId, {
      nonce: forAlpha.nonce,
      method: "token_file",
    }).expect(422);
    expect(missing.body.message).toMatch(/HTTP 404/);
  });

  it("when a proof is malformed or names no challenge, then it is a 400 or 404, never a 500", async () => {
    await prove(api, alpha.registrationId, { nonce: "0".repeat(32), method: "signature" }).expect(400);
    await prove(api, alpha.registrationId, { nonce: "0".repeat(32), method: "token_file" }).expect(404);
    await prove(api, "00000000-0000-4000-8000-000000000000", {
      nonce: "0".repeat(32),
      method: "token_file",
    }).expect(404);
    await request(api.app).post("/v1/registrations/not-a-uuid/ownership-challenge").expect(400);
  });
});
