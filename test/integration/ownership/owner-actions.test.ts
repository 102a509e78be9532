import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markListed } from "../../../src/catalogue/end-of-run-writes";
import { inTransaction } from "../../../src/db/transaction";
import { emitEvents } from "../../../src/events/emit";
import { AddressPolicy } from "../../../src/probe/ssrf-guard";
import { claimDueDeliveries } from "../../../src/webhooks/deliveries";
import { deliver } from "../../../src/webhooks/delivery-worker";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import type { TestApp } from "../../support/app";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { recordingLogger, testLogger } from "../../support/logger";
import { connectMcp, type McpConnection } from "../../support/mcp";
import {
  asOwner,
  BASE,
  becomeOwner,
  evmKey,
  originPath,
  ownershipApp,
  type SellerOrigin,
  sellerOrigin,
} from "../../support/ownership";
import { startWebhookReceiver } from "../../support/webhook-receiver";
import { ALLOWED_NETWORKS, madeUpNames, testWebhookSettings } from "../../support/webhooks";

describe("what a verified owner sees and does", () => {
  let database: TestDatabase;
  let api: TestApp;
  let mcp: McpConnection;
  let alpha: SellerOrigin;
  let beta: SellerOrigin;
  let credential: string;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const keys = SecretKeyRing.ephemeral();
  const logs = recordingLogger();
  const clock = { now: new Date("2026-11-28T03:00:00.000Z") };
  const payTo = evmKey();
  const path = (origin: string, action: string) => `/v1/origin-owners/${originPath(origin)}/${action}`;

  /** Delivers everything due, as the delivery worker would. */
  async function deliverDue() {
    const deps = {
      db: database.db,
      settings: testWebhookSettings,
      keys,
      logger: testLogger,
      resolve: madeUpNames,
    };
    for (;;) {
      const due = await claimDueDeliveries(database.db, 10, 60_000);
      if (due.length === 0) return;
      for (const delivery of due) await deliver(deps, new AddressPolicy(ALLOWED_NETWORKS), delivery);
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    alpha = await sellerOrigin(database, "Alpha", [{ network: BASE, address: payTo.address }]);
    beta = await sellerOrigin(database, "Beta", []);
    api = ownershipApp(database, clock, keys, logs.logger);
    mcp = await connectMcp(api.app, "ownership-test");
    receiver = await startWebhookReceiver();
    credential = await becomeOwner(api, alpha, payTo);
  });
  afterAll(async () => {
    await mcp.close();
    await receiver.close();
    await api.close();
    await alpha.site.stop();
    await beta.site.stop();
    await database.drop();
  });

  it("when an origin is verified, then its services show owner_verified in the list, its filter, the CSV and MCP", async () => {
    const list = await request(api.app).get("/v1/services?owner_verified=true").expect(200);
    expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(["Alpha"]);
    const others = await request(api.app).get("/v1/services?owner_verified=false").expect(200);
    expect(others.body.items.map((s: { name: string }) => s.name)).toEqual(["Beta"]);
    const csv = parseCsv((await request(api.app).get("/v1/services.csv?sort=name").expect(200)).text);
    const column = csv[0]?.indexOf("owner_verified") ?? -1;
    expect(csv.slice(1).map((row) => [row[1], row[column]])).toEqual([
      ["Alpha", "true"],
      ["Beta", "false"],
    ]);
    const found = await mcp.client.callTool({
      name: "search_services",
      arguments: { owner_verified: "true", fields: ["name", "owner_verified"] },
    });
    expect(found.structuredContent).toMatchObject({ items: [{ name: "Alpha", owner_verified: true }] });
  });

  it("when the owner corrects its fields, then they are shown as the owner's beside the crawled ones", async () => {
    const report = {
      description: "Quotes, by us",
      category: "Finance",
      tags: ["Quotes", "stocks"],
      icon: "https://a.example/i.png",
    };
    await request(api.app).put(path(alpha.origin, "report")).send(report).expect(401);
    await asOwner(request(api.app).put(path(beta.origin, "report")), credential)
      .send(report)
      .expect(403);
    const saved = await asOwner(request(api.app).put(path(alpha.origin, "report")), credential)
      .send(report)
      .expect(200);
    expect(saved.body.owner_reported).toMatchObject({
      tags: ["quotes", "stocks"],
      reported_at: clock.now.toISOString(),
    });
    const detail = await request(api.app).get(`/v1/services/${alpha.serviceId}`).expect(200);
    expect(detail.body).toMatchObject({
      description: "Alpha as crawled",
      owner_verified: true,
      owner_reported: {
        description: "Quotes, by us",
        category: "Finance",
        tags: ["quotes", "stocks"],
        icon: report.icon,
      },
    });
    await asOwner(request(api.app).put(path(alpha.origin, "report")), credential)
      .send({ description: "x".repeat(2001) })
      .expect(400);
  });

  it("when the owner subscribes a webhook endpoint, then it receives its origin's events and no other origin's", async () => {
    const endpoint = await asOwner(request(api.app).post(path(alpha.origin, "webhook-endpoint")), credential)
      .send({ url: `${receiver.url}/alpha`, enabled_events: ["*"] })
      .expect(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    await asOwner(request(api.app).post(path(alpha.origin, "webhook-endpoint")), credential)
      .send({ url: `${receiver.url}/again`, enabled_events: ["*"] })
      .expect(409);
    const ref = (id: string, name: string) => ({
      service: { id, name, source: "html_directory", detail_url: name },
    });
    await inTransaction(database.db, (tx) =>
      emitEvents(tx, [
        { type: "service.relisted", serviceId: beta.serviceId, data: ref(beta.serviceId, "Beta") },
        { type: "service.relisted", serviceId: alpha.serviceId, data: ref(alpha.serviceId, "Alpha") },
      ]),
    );
    await deliverDue();
    const received = receiver.received.map(
      (r) => JSON.parse(r.body) as { type: string; data: { service: { name: string } } },
    );
    expect(received.map((event) => [event.type, event.data.service.name])).toEqual([
      ["service.relisted", "Alpha"],
    ]);
  });

  it("when the owner deregisters, then its services are delisted with reason owner_request, kept, and crawls leave them so", async () => {
    await request(api.app).post(path(alpha.origin, "deregister")).expect(401);
    const answer = await asOwner(request(api.app).post(path(alpha.origin, "deregister")), credential).expect(
      200,
    );
    expect(answer.body).toEqual({
      origin: alpha.origin,
      reason: "owner_request",
      delisted_service_ids: [alpha.serviceId],
    });
    const listed = await request(api.app).get("/v1/services").expect(200);
    expect(listed.body.items.map((s: { name: string }) => s.name)).toEqual(["Beta"]);
    const detail = await request(api.app).get(`/v1/services/${alpha.serviceId}`).expect(200);
    expect(detail.body).toMatchObject({ status: "delisted", delist_reason: "owner_request" });

    const row = await database.db.service.findUniqueOrThrow({ where: { id: alpha.serviceId } });
    await markListed(database.db, row.sourceId, [alpha.detailUrl], new Date());
    expect((await database.db.service.findUniqueOrThrow({ where: { id: alpha.serviceId } })).status).toBe(
      "delisted",
    );

    await deliverDue();
    const last = JSON.parse(receiver.received.at(-1)?.body ?? "{}") as { type: string };
    expect(last.type).toBe("service.delisted");
  });

  it("when an owner acts on another origin or without a credential, then it is refused", async () => {
    await asOwner(request(api.app).post(path(beta.origin, "deregister")), credential).expect(403);
    await asOwner(request(api.app).post(path(alpha.origin, "deregister")), "xown_short").expect(403);
    await request(api.app).post("/v1/origin-owners/not-an-origin/deregister").expect(400);
    const status = await request(api.app)
      .get(`/v1/origin-owners/${originPath(beta.origin)}`)
      .expect(200);
    expect(status.body).toMatchObject({ owner_verified: false, owner: null });
  });

  it("when the owner asks for a re-index with its credential, then its origin is re-read; others are refused", async () => {
    await request(api.app).post(path(alpha.origin, "reindex")).expect(401);
    await asOwner(request(api.app).post(path(beta.origin, "reindex")), credential).expect(403);
    const answer = await asOwner(request(api.app).post(path(alpha.origin, "reindex")), credential).expect(
      200,
    );
    expect(answer.body.origin).toBe(alpha.origin);
    expect(answer.body.registrations.map((r: { id: string }) => r.id)).toEqual([alpha.registrationId]);
  });

  it("when the owner has acted, then no log line holds its credential", () => {
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs.lines)).not.toContain(credential.slice(5));
  });
});
