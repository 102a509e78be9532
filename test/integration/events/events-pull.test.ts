import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../../src/db/transaction";
import { type EventOwner, emitEvents, type NewEvent } from "../../../src/events/emit";
import { pruneEvents } from "../../../src/events/event-queries";
import { bearer, call, type IssuedKey, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const serviceId = randomUUID();

function listed(name: string, id = serviceId): NewEvent {
  return {
    type: "service.listed",
    serviceId: id,
    data: { service: { id, name, source: "directory", detail_url: `https://dir.example/s/${name}` } },
  };
}

function disabled(owner: EventOwner): NewEvent {
  return {
    type: "webhook_endpoint.disabled",
    owner,
    data: {
      webhook_endpoint_id: randomUUID(),
      url: "https://hooks.example/x",
      disabled_at: new Date().toISOString(),
      reason: "test",
    },
  };
}

describe("the event outbox and GET /v1/events", () => {
  let database: TestDatabase;
  let api: Replica;
  let acmeLive: IssuedKey;
  let acmeTest: IssuedKey;
  let globex: IssuedKey;
  let acmeOwner: EventOwner;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startReplica(database);
    acmeLive = await issueKey(database.db, "acme", "live", ["catalogue:read"]);
    acmeTest = await issueKey(database.db, "acme", "test", ["catalogue:read"]);
    globex = await issueKey(database.db, "globex", "live", ["catalogue:read"]);
    const key = await database.db.apiKey.findUniqueOrThrow({ where: { id: acmeLive.id } });
    acmeOwner = { organisationId: key.organisationId, environment: "live" };
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  const names = (body: { items: { data: { service?: { name: string } } }[] }) =>
    body.items.map((item) => item.data.service?.name);

  async function readAll(path: string, headers: Record<string, string> = {}) {
    const items: { type: string; data: { service?: { name: string } } }[] = [];
    let after = "";
    for (;;) {
      const separator = path.includes("?") ? "&" : "?";
      const answer = await call(api.url, `${path}${separator}limit=2${after ? `&after=${after}` : ""}`, {
        headers,
      });
      expect(answer.status).toBe(200);
      items.push(...answer.body.items);
      after = answer.body.next_cursor;
      if (!answer.body.has_more) return { items, cursor: after };
    }
  }

  it("when events commit in two transactions, then pages of 2 return them all, in order", async () => {
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("a"), listed("b"), listed("c")]));
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("d"), listed("e")]));
    const { items } = await readAll("/v1/events");
    expect(items.map((item) => item.data.service?.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(items.every((item) => item.type === "service.listed")).toBe(true);
  });

  it("when the change's transaction rolls back, then its event never appears", async () => {
    const before = await readAll("/v1/events");
    await expect(
      inTransaction(database.db, async (tx) => {
        await emitEvents(tx, [listed("rolled back")]);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const after = await call(api.url, `/v1/events?after=${before.cursor}`);
    expect(after.body.items).toEqual([]);
    expect(after.body.next_cursor).toBe(before.cursor);
  });

  it("when an older transaction is still open, then later commits wait behind it and no cursor skips it", async () => {
    const { cursor } = await readAll("/v1/events");
    let emitted: () => void = () => undefined;
    const slowEmitted = new Promise<void>((resolve) => {
      emitted = resolve;
    });
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slow = inTransaction(database.db, async (tx) => {
      await emitEvents(tx, [listed("slow")]);
      emitted();
      await finished;
    });
    await slowEmitted;
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("fast")]));
    const meanwhile = await call(api.url, `/v1/events?after=${cursor}`);
    expect(names(meanwhile.body)).toEqual([]);
    finish();
    await slow;
    const after = await call(api.url, `/v1/events?after=${cursor}`);
    expect(names(after.body)).toEqual(["slow", "fast"]);
  });

  it("when an organisation's own event exists, then only that organisation's keys of that environment read it", async () => {
    await inTransaction(database.db, (tx) => emitEvents(tx, [disabled(acmeOwner)]));
    const owned = (body: { items: { type: string }[] }) =>
      body.items.filter((item) => item.type === "webhook_endpoint.disabled").length;
    const path = "/v1/events?limit=200";
    expect(owned((await call(api.url, path, { headers: bearer(acmeLive.key) })).body)).toBe(1);
    expect(owned((await call(api.url, path, { headers: bearer(acmeTest.key) })).body)).toBe(0);
    expect(owned((await call(api.url, path, { headers: bearer(globex.key) })).body)).toBe(0);
    expect(owned((await call(api.url, path)).body)).toBe(0);
  });

  it("when types and service_id filter, then only matching events come back; bad filters are a 400", async () => {
    const other = randomUUID();
    await inTransaction(database.db, (tx) => emitEvents(tx, [listed("other service", other)]));
    const byService = await call(api.url, `/v1/events?service_id=${other}`);
    expect(names(byService.body)).toEqual(["other service"]);
    const byType = await call(api.url, "/v1/events?types=crawl.failed&types=endpoint.added");
    expect(byType.body.items).toEqual([]);
    expect((await call(api.url, "/v1/events?types=service.exploded")).status).toBe(400);
    expect((await call(api.url, "/v1/events?after=42")).status).toBe(400);
  });

  it("when an owned kind is emitted without an owner, then the emitter refuses it", async () => {
    const { owner: _none, ...ownerless } = disabled(acmeOwner) as NewEvent & { owner: EventOwner };
    await expect(inTransaction(database.db, (tx) => emitEvents(tx, [ownerless as NewEvent]))).rejects.toThrow(
      "an owner is required",
    );
  });

  it("when events are older than the retention, then the cleanup deletes them", async () => {
    const count = await database.db.event.count();
    expect(await pruneEvents(database.db, 30, new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    expect(await pruneEvents(database.db, 30, new Date(Date.now() + 31 * 86_400_000))).toBe(count);
    expect((await call(api.url, "/v1/events")).body.items).toEqual([]);
  });
});
