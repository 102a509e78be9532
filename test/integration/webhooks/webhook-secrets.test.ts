import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inTransaction } from "../../../src/db/transaction";
import { emitEvents } from "../../../src/events/emit";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";
import { claimDueDeliveries } from "../../../src/webhooks/deliveries";
import { deliver } from "../../../src/webhooks/delivery-worker";
import { SecretKeyRing, UnknownSecretKeyError } from "../../../src/webhooks/secret-keys";
import { sealStoredSecrets } from "../../../src/webhooks/secret-sealing";
import { bearer, call, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { recordingLogger, testLogger } from "../../support/logger";
import { type ReceivedRequest, startWebhookReceiver } from "../../support/webhook-receiver";
import {
  ALLOWED_NETWORKS as ALLOWED,
  listedEvent,
  madeUpNames as resolve,
  testWebhookSettings as settings,
} from "../../support/webhooks";

const HOUR = 3_600_000;

const verifies = (secret: string, request: ReceivedRequest) => {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
};

describe("webhook secrets at rest, their rotation, and URL rules", () => {
  let database: TestDatabase;
  let api: Replica;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let acme: IssuedKey;
  let clock = () => new Date();
  /** The API's key; deliveries use `deliveryKeys`, which a test of key rotation replaces. */
  const apiKey = randomBytes(32);
  const keys = new SecretKeyRing(apiKey);
  let deliveryKeys = keys;
  const log = recordingLogger();
  const policy = new AddressPolicy(ALLOWED);

  async function deliverDue() {
    for (;;) {
      const due = await claimDueDeliveries(database.db, 10, 60_000);
      if (due.length === 0) return;
      for (const delivery of due) {
        const deps = { db: database.db, settings, keys: deliveryKeys, logger: testLogger, resolve };
        await deliver(deps, policy, delivery);
      }
    }
  }

  async function create(body: Record<string, unknown>) {
    return call(api.url, "/v1/webhook-endpoints", {
      method: "POST",
      headers: { ...bearer(acme.key), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  async function rotate(id: string, at: Date): Promise<string> {
    clock = () => at;
    const rotated = await call(api.url, `/v1/webhook-endpoints/${id}/rotate-secret`, {
      method: "POST",
      headers: bearer(acme.key),
    });
    clock = () => new Date();
    expect(rotated.status).toBe(200);
    return rotated.body.secret as string;
  }

  /** The one delivery the endpoint at `path` receives for a new event. */
  async function deliveredTo(path: string): Promise<ReceivedRequest> {
    await inTransaction(database.db, (tx) => emitEvents(tx, [listedEvent(path)]));
    await deliverDue();
    const got = receiver.received.filter((request) => request.path === path);
    expect(got).toHaveLength(1);
    return got[0] as ReceivedRequest;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database, {
      logger: log.logger,
      webhooks: { allowedNetworks: ALLOWED, resolve, secretKeys: keys, now: () => clock() },
    });
    receiver = await startWebhookReceiver();
    acme = await issueKey(database.db, "acme", "live", ["webhooks:write"]);
    await database.db.organisation.update({ where: { name: "acme" }, data: { planId: "pro" } });
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
    await database.drop();
  });
  beforeEach(async () => {
    await database.db.webhookEndpoint.deleteMany();
  });

  it("when endpoints are created and rotated, then no stored column holds a secret, and deliveries still verify", async () => {
    const created = await create({ url: `${receiver.url}/at-rest`, enabled_events: ["*"] });
    const first = created.body.secret as string;
    const second = await rotate(created.body.id, new Date());
    const dump = await database.db.$queryRaw<{ row: string }[]>`
      SELECT row_to_json(w)::text AS row FROM webhook_endpoints w`;
    expect(dump).toHaveLength(1);
    const text = dump[0]?.row ?? "";
    expect(text).not.toContain("whsec_");
    for (const secret of [first, second]) expect(text).not.toContain(secret.slice("whsec_".length));

    const request = await deliveredTo("/at-rest");
    expect(verifies(first, request)).toBe(true);
    expect(verifies(second, request)).toBe(true);
  });

  it("when the secret is rotated twice in a row, then receivers holding the first, second or third secret all verify", async () => {
    const created = await create({ url: `${receiver.url}/twice`, enabled_events: ["*"] });
    const secrets = [
      created.body.secret as string,
      await rotate(created.body.id, new Date()),
      await rotate(created.body.id, new Date()),
    ];
    const request = await deliveredTo("/twice");
    expect(request.headers["webhook-signature"]?.split(" ")).toHaveLength(3);
    expect(secrets.map((secret) => verifies(secret, request))).toEqual([true, true, true]);
  });

  it("when a secret was rotated out more than 24 h ago, then it no longer signs while the later ones do", async () => {
    const created = await create({ url: `${receiver.url}/expired`, enabled_events: ["*"] });
    const secrets = [
      created.body.secret as string,
      await rotate(created.body.id, new Date(Date.now() - 25 * HOUR)),
      await rotate(created.body.id, new Date(Date.now() - HOUR)),
    ];
    const request = await deliveredTo("/expired");
    expect(request.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(secrets.map((secret) => verifies(secret, request))).toEqual([false, true, true]);
  });

  it("when secrets are stored in plain text (an upgraded database), then the start seals them and deliveries verify with them", async () => {
    const created = await create({ url: `${receiver.url}/upgraded`, enabled_events: ["*"] });
    const current = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const previous = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    const expires = new Date(Date.now() + HOUR).toISOString();
    await database.db.$executeRaw`
      UPDATE webhook_endpoints
      SET secret = ${current},
          previous_secrets = jsonb_build_array(jsonb_build_object('secret', ${previous}::text, 'expires_at', ${expires}::text))
      WHERE id = ${created.body.id}::uuid`;

    expect(await sealStoredSecrets(database.db, keys)).toBe(1);
    const [stored] = await database.db.$queryRaw<{ row: string }[]>`
      SELECT row_to_json(w)::text AS row FROM webhook_endpoints w`;
    expect(stored?.row).not.toContain("whsec_");
    expect(await sealStoredSecrets(database.db, keys)).toBe(0);

    const request = await deliveredTo("/upgraded");
    expect([verifies(current, request), verifies(previous, request)]).toEqual([true, true]);
  });

  it("when the key is replaced and the old one kept for reading, then the start seals again with the new key; a process without the key refuses to start", async () => {
    const created = await create({ url: `${receiver.url}/old-key`, enabled_events: ["*"] });
    const newKey = randomBytes(32);
    await expect(sealStoredSecrets(database.db, new SecretKeyRing(newKey))).rejects.toBeInstanceOf(
      UnknownSecretKeyError,
    );
    expect(await sealStoredSecrets(database.db, new SecretKeyRing(newKey, [apiKey]))).toBe(1);
    deliveryKeys = new SecretKeyRing(newKey);
    try {
      const request = await deliveredTo("/old-key");
      expect(verifies(created.body.secret, request)).toBe(true);
    } finally {
      deliveryKeys = keys;
    }
  });

  it("when a URL holds a backslash or a control character, then it is refused naming the field; otherwise its normal form is stored and answered", async () => {
    for (const url of [
      "https://public.example\\@evil.example/hook",
      "https://public.example/ho\r\nok",
      "https://public.example/\thook",
      "https://public.example/hook\u007f",
      "https://public.example/hook\u0000",
    ]) {
      const answer = await create({ url, enabled_events: ["*"] });
      expect(answer.status, JSON.stringify(url)).toBe(400);
      expect(answer.body.message).toMatch(
        /^url: must not contain (control characters or backslashes|NUL characters)/,
      );
    }
    const created = await create({
      url: "HTTPS://Public.Example:443/a/./b/../hook?x=1",
      enabled_events: ["*"],
    });
    expect(created.status).toBe(201);
    expect(created.body.url).toBe("https://public.example/a/hook?x=1");
    const got = await call(api.url, `/v1/webhook-endpoints/${created.body.id}`, {
      headers: bearer(acme.key),
    });
    expect(got.body.url).toBe("https://public.example/a/hook?x=1");
    const patched = await call(api.url, `/v1/webhook-endpoints/${created.body.id}`, {
      method: "PATCH",
      headers: { ...bearer(acme.key), "content-type": "application/json" },
      body: JSON.stringify({ url: "https://PUBLIC.example/other/../next" }),
    });
    expect(patched.body.url).toBe("https://public.example/next");
    const refused = await call(api.url, `/v1/webhook-endpoints/${created.body.id}`, {
      method: "PATCH",
      headers: { ...bearer(acme.key), "content-type": "application/json" },
      body: JSON.stringify({ url: "https://public.example\\next" }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^url: /);
  });

  it("when a URL resolves to a non-public address, then the answer names the setting that allows it but not the resolution, which only the debug log has", async () => {
    for (const [url, resolved] of [
      ["https://v6.example/hook", "::1"],
      ["https://internal.example/hook", "10.1.2.3"],
    ] as const) {
      const answer = await create({ url, enabled_events: ["*"] });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain("is not a public address");
      expect(answer.body.message).toContain("WEBHOOK_ALLOWED_NETWORKS");
      expect(answer.body.message).not.toContain(resolved);
      expect(answer.body.message).not.toMatch(/private|loopback|resolves/);
      expect(JSON.stringify(log.lines.filter((line) => line.level === 20))).toContain(resolved);
    }
  });
});
