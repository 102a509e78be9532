import { Webhook } from "standardwebhooks";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureOrganisation } from "../../../src/accounts/organisations";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";
import { sweepOnce } from "../../../src/probe/sweep-once";
import { claimDueDeliveries } from "../../../src/webhooks/deliveries";
import { deliver } from "../../../src/webhooks/delivery-worker";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import { createWebhookEndpoint } from "../../../src/webhooks/webhook-endpoints";
import { createTestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { testProbeSettings } from "../../support/probe";
import { startWebhookReceiver } from "../../support/webhook-receiver";
import { testWebhookSettings } from "../../support/webhooks";
import { v1ChallengeBody } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";

/**
 * Real probes against loopback origins, sweep after sweep, with thresholds shortened to
 * seconds: down after 2 failing probes spanning 50 ms, dead 4 s later, zombie after 2.5 s (a
 * sweep of four loopback endpoints and its refresh take under a second). Each health change reaches a webhook as a signed delivery.
 */
const ALLOWED = ["127.0.0.0/8"];
const trust = {
  downProbes: 2,
  downAfterMs: 50,
  deadAfterMs: 4_000,
  zombieAfterMs: 2_500,
  slowP99Ms: 5_000,
  serviceBatch: 1,
};
const settings = testProbeSettings({ trust });
const webhookSettings = {
  ...testWebhookSettings,
  allowedNetworks: ALLOWED,
  resolve: async (hostname: string) => [{ address: hostname, family: 4 as const }],
};
/** The webhook endpoint's secret is sealed and opened with it. */
const keys = SecretKeyRing.ephemeral();

const PAID = { status: 402, body: v1ChallengeBody() };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("health lifecycle through real probes", () => {
  let database: TestDatabase;
  let origin: X402Fixture;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let secret = "";
  const ids: Record<string, string> = {};

  const sweep = () =>
    sweepOnce({ db: database.db, settings, logger: testLogger, signal: new AbortController().signal });
  const health = async () => {
    const rows = await database.db.endpoint.findMany({
      select: { url: true, health: true, trustWarnings: true },
    });
    return Object.fromEntries(
      rows.map((r) => [new URL(r.url).pathname, { health: r.health, warnings: r.trustWarnings }]),
    );
  };
  async function deliverDue() {
    const policy = new AddressPolicy(ALLOWED);
    for (;;) {
      const due = await claimDueDeliveries(database.db, 50, 60_000);
      if (due.length === 0) return;
      for (const d of due)
        await deliver({ db: database.db, settings: webhookSettings, keys, logger: testLogger }, policy, d);
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    origin = await new X402Fixture().start();
    receiver = await startWebhookReceiver();
    for (const path of ["/dies", "/flaps", "/returns", "/zombie"]) origin.set(path, PAID);
    const [service] = await seedServices(database.db, [
      {
        name: "lifecycle",
        endpoints: ["/dies", "/flaps", "/returns", "/zombie"].map((p) => ({
          method: "GET",
          url: origin.url(p),
        })),
      },
    ]);
    ids.service = service;
    const organisation = await ensureOrganisation(database.db, "watcher");
    const created = await createWebhookEndpoint(
      database.db,
      keys,
      { organisationId: organisation.id, environment: "live" },
      {
        url: `${receiver.url}/hook`,
        description: "",
        enabledEvents: ["endpoint.health_changed", "service.health_changed"],
        redactMetadata: false,
      },
    );
    if (!("created" in created)) throw new Error("webhook endpoint not created");
    secret = created.created.secret;
  });
  afterAll(async () => {
    await origin?.stop();
    await receiver?.close();
    await database?.drop();
  });

  it("when every endpoint answers its challenge, then all are live, and so is the service", async () => {
    expect(Object.values(await health()).every((h) => h.health === "unknown")).toBe(true);
    await sweep();
    expect(Object.values(await health()).map((h) => h.health)).toEqual(["live", "live", "live", "live"]);
    const service = await database.db.service.findUniqueOrThrow({ where: { id: ids.service } });
    expect(service.health).toBe("live");
    expect(service.grade).not.toBeNull();
  });

  it("when endpoints stop answering, then one failing probe degrades them and failures spanning the down time make them down", async () => {
    origin.set("/dies", { status: 503, body: "gone" });
    origin.set("/flaps", { status: 500, body: "oops" });
    origin.set("/returns", { status: 503, body: "maintenance" });
    origin.set("/zombie", { status: 404, body: "not found" });
    await sweep();
    expect((await health())["/dies"]?.health).toBe("degraded");
    await pause(60);
    await sweep();
    const now = await health();
    expect(now["/dies"]?.health).toBe("down");
    expect(now["/zombie"]?.health).toBe("down");
  });

  it("when one flaps back and another returns, then they leave down; the dead stays dead and the zombie is named", async () => {
    origin.set("/flaps", PAID);
    origin.set("/returns", PAID);
    await pause(4_000);
    await sweep();
    const now = await health();
    expect(now["/returns"]?.health).toBe("degraded"); // recent failures in the last 24 h
    expect(now["/flaps"]?.health).toBe("degraded");
    expect(now["/dies"]?.health).toBe("dead");
    expect(now["/dies"]?.warnings).toContain("dead");
    expect(now["/zombie"]?.warnings).toContain("zombie");

    origin.set("/flaps", { status: 500, body: "oops" });
    const probesBefore = origin.requests.filter((r) => r.path === "/dies").length;
    await sweep();
    // A dead endpoint is probed daily, not every sweep.
    expect(origin.requests.filter((r) => r.path === "/dies").length).toBe(probesBefore);
    expect((await health())["/flaps"]?.health).toBe("degraded");
  });

  it("when the service detail is read, then each endpoint shows its health, checks, grade, score and warnings", async () => {
    const api = createTestApp(database);
    const detail = await request(api.app).get(`/v1/services/${ids.service}`);
    expect(detail.status).toBe(200);
    const dies = detail.body.endpoints.find((e: { url: string }) => e.url.endsWith("/dies"));
    expect(dies).toMatchObject({ health: "dead", grade: "F", warnings: expect.arrayContaining(["dead"]) });
    expect(dies.checks.find((c: { id: string }) => c.id === "answers_402")).toMatchObject({ result: "fail" });
    expect(detail.body).toMatchObject({ health: "degraded", grade: expect.stringMatching(/^[A-F]$/) });
  });

  it("when the changes are delivered, then the webhook receives each transition with old, new, reason and probes, signed", async () => {
    await deliverDue();
    const events = receiver.received.map(
      (r) =>
        new Webhook(secret).verify(r.body, r.headers) as {
          type: string;
          data: {
            endpoint?: { url: string };
            old_health: string;
            new_health: string;
            reason: string;
            probes?: unknown[];
          };
        },
    );
    const path = (e: (typeof events)[number]) =>
      e.data.endpoint ? new URL(e.data.endpoint.url).pathname : "service";
    const transitions = events.map((e) => `${path(e)}: ${e.data.old_health} -> ${e.data.new_health}`);
    expect(transitions).toEqual(
      expect.arrayContaining([
        "/dies: unknown -> live",
        "/dies: live -> degraded",
        "/dies: degraded -> down",
        "/dies: down -> dead",
        "/returns: down -> degraded",
        "/zombie: degraded -> down",
        "service: unknown -> live",
        "service: live -> degraded",
      ]),
    );
    const dead = events.find((e) => e.type === "endpoint.health_changed" && e.data.new_health === "dead");
    expect(dead?.data.reason).toMatch(/no valid challenge/);
    expect(dead?.data.probes?.length).toBeGreaterThanOrEqual(2);
  });
});
