import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../../src/db/transaction";
import { emitEvents, type NewEvent } from "../../../src/events/emit";
import type { HostResolver } from "../../../src/probe/resolve-target";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";
import { claimDueDeliveries } from "../../../src/webhooks/deliveries";
import { type DeliveryDeps, deliver, startWebhookDelivery } from "../../../src/webhooks/delivery-worker";
import type { WebhookSettings } from "../../../src/webhooks/settings";
import { bearer, call, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  testWebhookSettings,
} from "../../support/webhook-receiver";

const HOUR = 3_600_000;
const ALLOWED = ["127.0.0.0/8"];
/** Made-up names for the guard: one public address, one private. */
const resolve: HostResolver = async (hostname) => {
  if (hostname === "public.example") return [{ address: "93.184.216.34", family: 4 }];
  if (hostname === "internal.example") return [{ address: "10.1.2.3", family: 4 }];
  if (/^[\d.]+$/.test(hostname)) return [{ address: hostname, family: 4 }];
  throw new Error(`unknown host ${hostname}`);
};

const settings: WebhookSettings = testWebhookSettings({ allowedNetworks: ALLOWED, resolve });

function listed(name: string): NewEvent {
  const id = "00000000-0000-4000-8000-000000000001";
  return {
    type: "service.listed",
    serviceId: id,
    data: { service: { id, name, source: "directory", detail_url: `https://dir.example/${name}` } },
  };
}

describe("webhook endpoints and signed deliveries", () => {
  let database: TestDatabase;
  let api: Replica;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let acme: IssuedKey;
  let acmeTest: IssuedKey;
  let reader: IssuedKey;
  let clock = () => new Date();
  const deps = (): DeliveryDeps => ({ db: database.db, settings, logger: testLogger, resolve });
  const policy = new AddressPolicy(ALLOWED);

  /** Delivers everything due now, as the worker would, until nothing is due. */
  async function deliverDue(now?: () => Date) {
    for (;;) {
      const due = await claimDueDeliveries(database.db, 10, 60_000);
      if (due.length === 0) return;
      for (const delivery of due) await deliver({ ...deps(), now }, policy, delivery);
    }
  }

  async function create(key: string, body: Record<string, unknown>) {
    return call(api.url, "/v1/webhook-endpoints", {
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database, {
      webhooks: { allowedNetworks: ALLOWED, resolve, now: () => clock() },
    });
    receiver = await startWebhookReceiver();
    acme = await issueKey(database.db, "acme", "live", ["webhooks:write"]);
    acmeTest = await issueKey(database.db, "acme", "test", ["webhooks:write"]);
    reader = await issueKey(database.db, "acme", "live", ["catalogue:read"]);
    // These tests create many endpoints: acme pays for a plan with room for them.
    await database.db.organisation.update({ where: { name: "acme" }, data: { planId: "pro" } });
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
    await database.drop();
  });

  it("when an organisation's plan allows one endpoint per environment, then a second is refused with 403 and the other environment still has its own", async () => {
    const live = await issueKey(database.db, "small shop", "live", ["webhooks:write"]);
    const test = await issueKey(database.db, "small shop", "test", ["webhooks:write"]);
    const body = { url: `${receiver.url}/small`, enabled_events: ["*"] };
    expect((await create(live.key, body)).status).toBe(201);
    const refused = await create(live.key, body);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      message:
        "The Free plan allows 1 webhook endpoint per environment, and this live environment has them: " +
        "delete one, or change plan (GET /v1/plans)",
      error: "Forbidden",
    });
    expect((await create(test.key, body)).status).toBe(201);
    const listed = await call(api.url, "/v1/webhook-endpoints", { headers: bearer(live.key) });
    expect(listed.body.items).toHaveLength(1);
  });

  it("when an endpoint is created, then the secret is in that answer only and the endpoint is its environment's", async () => {
    const created = await create(acme.key, {
      url: `${receiver.url}/crud`,
      enabled_events: ["*"],
      description: "crud",
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body).toMatchObject({ enabled_events: ["*"], redact_metadata: false, disabled_at: null });
    const id = created.body.id;
    const got = await call(api.url, `/v1/webhook-endpoints/${id}`, { headers: bearer(acme.key) });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(
      (await call(api.url, `/v1/webhook-endpoints/${id}`, { headers: bearer(acmeTest.key) })).status,
    ).toBe(404);
    expect((await call(api.url, "/v1/webhook-endpoints", { headers: bearer(reader.key) })).status).toBe(403);
    const patched = await call(api.url, `/v1/webhook-endpoints/${id}`, {
      method: "PATCH",
      headers: { ...bearer(acme.key), "content-type": "application/json" },
      body: JSON.stringify({ disabled: true, description: "off" }),
    });
    expect(patched.body).toMatchObject({ description: "off", disabled_at: expect.any(String) });
    const deleted = await call(api.url, `/v1/webhook-endpoints/${id}`, {
      method: "DELETE",
      headers: bearer(acme.key),
    });
    expect(deleted.status).toBe(204);
    expect((await call(api.url, "/v1/webhook-endpoints", { headers: bearer(acme.key) })).body.items).toEqual(
      [],
    );
  });

  it("when URLs point at private, metadata or public-over-http addresses, then creation is refused with the reason", async () => {
    const refusals = [
      ["http://internal.example/hook", "10.1.2.3 is a private address"],
      ["https://169.254.169.254/latest", "cloud metadata address"],
      ["http://public.example/hook", "plain http is accepted only inside WEBHOOK_ALLOWED_NETWORKS"],
      ["ftp://public.example/hook", "only http and https"],
      ["https://user:pw@public.example/hook", "must not contain credentials"],
    ];
    for (const [url, reason] of refusals) {
      const answer = await create(acme.key, { url, enabled_events: ["*"] });
      expect(answer.status, url).toBe(400);
      expect(answer.body.message, url).toContain(reason);
    }
    expect(
      (await create(acme.key, { url: "https://public.example/hook", enabled_events: ["*"] })).status,
    ).toBe(201);
    await database.db.webhookEndpoint.deleteMany();
  });

  it("when events are emitted, then the subscribed endpoint receives each of its kinds once, verified by the library", async () => {
    const created = await create(acme.key, {
      url: `${receiver.url}/listed`,
      enabled_events: ["service.listed"],
    });
    const secret: string = created.body.secret;
    await inTransaction(database.db, (tx) =>
      emitEvents(tx, [
        listed("alpha"),
        {
          type: "crawl.failed",
          data: { crawl_run_id: created.body.id, source: "d", status: "failed", error: "x" },
        },
      ]),
    );
    await deliverDue();
    const mine = receiver.received.filter((request) => request.path === "/listed");
    expect(mine).toHaveLength(1);
    const verified = new Webhook(secret).verify(mine[0]?.body ?? "", mine[0]?.headers ?? {}) as {
      type: string;
      data: { service: { name: string } };
    };
    expect(verified.type).toBe("service.listed");
    expect(verified.data.service.name).toBe("alpha");
    await database.db.webhookEndpoint.deleteMany();
  });

  it("when the receiver answers 500 then 200, then it gets the event exactly once more and both attempts are listed", async () => {
    const created = await create(acme.key, { url: `${receiver.url}/flaky`, enabled_events: ["*"] });
    receiver.statuses.push(500);
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("beta")]));
    await deliverDue();
    const mine = receiver.received.filter((request) => request.path === "/flaky");
    expect(mine.map((request) => request.headers["webhook-id"])).toHaveLength(2);
    expect(new Set(mine.map((request) => request.headers["webhook-id"])).size).toBe(1);
    for (const request of mine) new Webhook(created.body.secret).verify(request.body, request.headers);
    const list = await call(api.url, `/v1/webhook-endpoints/${created.body.id}/deliveries`, {
      headers: bearer(acme.key),
    });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ status: "succeeded", event_type: "service.listed" });
    expect(list.body.items[0].attempts.map((a: { response_status: number }) => a.response_status)).toEqual([
      500, 200,
    ]);

    const retry = await call(
      api.url,
      `/v1/webhook-endpoints/${created.body.id}/deliveries/${list.body.items[0].id}/retry`,
      { method: "POST", headers: bearer(acme.key) },
    );
    expect(retry.status).toBe(202);
    const test = await call(api.url, `/v1/webhook-endpoints/${created.body.id}/test`, {
      method: "POST",
      headers: bearer(acme.key),
    });
    expect(test.status).toBe(202);
    await deliverDue();
    const types = receiver.received
      .filter((request) => request.path === "/flaky")
      .map((request) => (JSON.parse(request.body) as { type: string }).type);
    expect(types).toEqual(["service.listed", "service.listed", "service.listed", "webhook_endpoint.test"]);
    await database.db.webhookEndpoint.deleteMany();
  });

  async function rotatedAgo(path: string, ago: number) {
    const created = await create(acme.key, { url: `${receiver.url}${path}`, enabled_events: ["*"] });
    clock = () => new Date(Date.now() - ago);
    const rotated = await call(api.url, `/v1/webhook-endpoints/${created.body.id}/rotate-secret`, {
      method: "POST",
      headers: bearer(acme.key),
    });
    clock = () => new Date();
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    return { previous: created.body.secret as string, current: rotated.body.secret as string };
  }

  it("when the secret was rotated 23 h 59 min ago, then both secrets verify; at 24 h 01 min only the new one", async () => {
    const recent = await rotatedAgo("/recent", 23 * HOUR + 59 * 60_000);
    const old = await rotatedAgo("/old", 24 * HOUR + 60_000);
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("gamma")]));
    await deliverDue();
    const at = (path: string) =>
      receiver.received.find((request) => request.path === path) as ReceivedRequest;
    expect(at("/recent").headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [recent.previous, recent.current]) {
      expect(() => new Webhook(secret).verify(at("/recent").body, at("/recent").headers)).not.toThrow();
    }
    expect(at("/old").headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(() => new Webhook(old.current).verify(at("/old").body, at("/old").headers)).not.toThrow();
    expect(() => new Webhook(old.previous).verify(at("/old").body, at("/old").headers)).toThrow();
    await database.db.webhookEndpoint.deleteMany();
  });

  it("when deliveries have failed for 3 days, then the endpoint is disabled and the owner's other endpoints are told", async () => {
    const failing = await create(acme.key, {
      url: `${receiver.url}/down`,
      enabled_events: ["service.listed"],
    });
    const other = await create(acme.key, {
      url: `${receiver.url}/other`,
      enabled_events: ["webhook_endpoint.disabled"],
    });
    receiver.statuses.push(500);
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("delta")]));
    const [first] = await claimDueDeliveries(database.db, 10, 60_000);
    await deliver(deps(), policy, first as NonNullable<typeof first>);
    receiver.statuses.push(500);
    const [second] = await claimDueDeliveries(database.db, 10, 60_000);
    await deliver(
      { ...deps(), now: () => new Date(Date.now() + 72 * HOUR + 60_000) },
      policy,
      second as NonNullable<typeof second>,
    );
    const got = await call(api.url, `/v1/webhook-endpoints/${failing.body.id}`, {
      headers: bearer(acme.key),
    });
    expect(got.body.disabled_at).toEqual(expect.any(String));
    await deliverDue();
    const told = receiver.received.filter((request) => request.path === "/other");
    expect(told).toHaveLength(1);
    const event = new Webhook(other.body.secret).verify(told[0]?.body ?? "", told[0]?.headers ?? {}) as {
      type: string;
      data: { webhook_endpoint_id: string };
    };
    expect(event).toMatchObject({
      type: "webhook_endpoint.disabled",
      data: { webhook_endpoint_id: failing.body.id },
    });
  });

  it("when a worker dies holding a claimed delivery, then the delivery is due again after its lease and is delivered", async () => {
    await database.db.webhookEndpoint.deleteMany();
    const created = await create(acme.key, { url: `${receiver.url}/restart`, enabled_events: ["*"] });
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("epsilon")]));
    // The claim of a process that then died: a lease of 0 ms ends at once (in production: 70 s).
    expect(await claimDueDeliveries(database.db, 10, 0)).toHaveLength(1);
    await deliverDue();
    const got = receiver.received.filter((request) => request.path === "/restart");
    expect(got).toHaveLength(1);
    new Webhook(created.body.secret).verify(got[0]?.body ?? "", got[0]?.headers ?? {});
  });

  it("when an event commits while a delivering process idles between polls, then the commit's notification wakes it", async () => {
    await database.db.webhookEndpoint.deleteMany();
    const created = await create(acme.key, { url: `${receiver.url}/woken`, enabled_events: ["*"] });
    // A poll far beyond the test's time limit: only the notification can start this delivery.
    const delivery = await startWebhookDelivery({
      ...deps(),
      databaseUrl: database.url,
      settings: { ...settings, pollMs: 3_600_000 },
    });
    try {
      const woken = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (!receiver.received.some((request) => request.path === "/woken")) return;
          clearInterval(check);
          resolve();
        }, 20);
      });
      await inTransaction(database.db, (tx) => emitEvents(tx, [listed("zeta")]));
      await woken;
      const got = receiver.received.filter((request) => request.path === "/woken");
      new Webhook(created.body.secret).verify(got[0]?.body ?? "", got[0]?.headers ?? {});
    } finally {
      await delivery.stop();
    }
  });

  it("when a delivering process sends several deliveries to one endpoint, then they share one kept-alive connection", async () => {
    await database.db.webhookEndpoint.deleteMany();
    await create(acme.key, { url: `${receiver.url}/kept`, enabled_events: ["*"] });
    const delivery = await startWebhookDelivery({ ...deps(), databaseUrl: database.url, settings });
    try {
      const third = (async () => {
        for (;;) {
          const request = await receiver.next();
          if (receiver.received.filter((r) => r.path === "/kept").length === 3) return request;
        }
      })();
      await database.db.$transaction((tx) =>
        emitEvents(tx, [listed("kappa"), listed("lambda"), listed("mu")]),
      );
      await third;
    } finally {
      await delivery.stop();
    }
    const got = receiver.received.filter((request) => request.path === "/kept");
    expect(got.map((request) => request.headers.connection)).toEqual([
      "keep-alive",
      "keep-alive",
      "keep-alive",
    ]);
    expect(new Set(got.map((request) => request.remotePort)).size).toBe(1);
  });

  it("when a delivering process stops with claimed deliveries it has not started, then it gives them back unattempted", async () => {
    await database.db.webhookEndpoint.deleteMany();
    await create(acme.key, { url: `${receiver.url}/batch`, enabled_events: ["*"] });
    const delivery = await startWebhookDelivery({
      ...deps(),
      databaseUrl: database.url,
      settings: { ...settings, concurrency: 2 },
    });
    receiver.holds = 2;
    const first = receiver.next();
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("eta")]));
    await first;
    // One slot is free: the claim takes a batch of two, starts one and keeps the other.
    const second = receiver.next();
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("theta"), listed("iota")]));
    await second;
    const stopped = delivery.stop();
    receiver.answerHeld();
    await stopped;
    const rows = await database.db.webhookDelivery.findMany({ orderBy: { attempts: "asc" } });
    expect(rows.map((row) => [row.status, row.attempts, row.claimedBy])).toEqual([
      ["pending", 0, null],
      ["succeeded", 1, null],
      ["succeeded", 1, null],
    ]);
  });
});
