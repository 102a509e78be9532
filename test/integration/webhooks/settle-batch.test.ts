import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ensureOrganisation } from "../../../src/accounts/organisations";
import { emitEvents, type NewEvent } from "../../../src/events/emit";
import {
  type AttemptRecord,
  claimDueDeliveries,
  type DueDelivery,
  recordAttempts,
} from "../../../src/webhooks/deliveries";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import { createWebhookEndpoint } from "../../../src/webhooks/webhook-endpoints";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const SERVICE_ID = "00000000-0000-4000-8000-000000000001";
const T0 = Date.parse("2026-01-01T00:00:00Z");

function listed(name: string): NewEvent {
  return {
    type: "service.listed",
    serviceId: SERVICE_ID,
    data: { service: { id: SERVICE_ID, name, source: "directory", detail_url: `https://d.example/${name}` } },
  };
}

/** An attempt `seconds` after T0 that succeeded or was answered 500. */
const attempt = (seconds: number, succeeded: boolean): AttemptRecord => ({
  attemptedAt: new Date(T0 + seconds * 1000),
  durationMs: 3,
  responseStatus: succeeded ? 204 : 500,
  error: succeeded ? null : "answered 500",
  succeeded,
});

describe("settling many attempts in one statement", () => {
  let database: TestDatabase;
  let endpointId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const organisation = await ensureOrganisation(database.db, "acme");
    const outcome = await createWebhookEndpoint(
      database.db,
      SecretKeyRing.ephemeral(),
      { organisationId: organisation.id, environment: "live" },
      { url: "http://127.0.0.1:1/hook", description: "", enabledEvents: ["*"], redactMetadata: false },
    );
    if (!("created" in outcome)) throw new Error("the free plan allows one webhook endpoint");
    endpointId = outcome.created.endpoint.id;
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await database.db.webhookDelivery.deleteMany();
  });

  /** Emits `count` events and claims their deliveries, in event order. */
  async function claimed(count: number): Promise<DueDelivery[]> {
    const names = Array.from({ length: count }, (_, i) => `s${i}`);
    await database.db.$transaction((tx) => emitEvents(tx, names.map(listed)));
    const due = await claimDueDeliveries(database.db, count, 60_000);
    const order = (delivery: DueDelivery) =>
      names.indexOf((delivery.event.data as { service: { name: string } }).service.name);
    return due.sort((a, b) => order(a) - order(b));
  }

  const setFailingSince = (at: Date | null) =>
    database.db.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: at } });
  const failingSince = async () =>
    (await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).failingSince;

  it("when one batch holds a failure, a success and a failure with a retry window over, then each delivery is settled by its own outcome and every attempt is logged", async () => {
    const [failed, succeeded, gaveUp] = (await claimed(3)) as [DueDelivery, DueDelivery, DueDelivery];
    const retryAt = new Date(T0 + 60_000);
    await recordAttempts(database.db, [
      { delivery: failed, attempt: attempt(1, false), retryAt },
      { delivery: succeeded, attempt: attempt(2, true), retryAt: null },
      { delivery: gaveUp, attempt: attempt(3, false), retryAt: null },
    ]);
    const rows = await database.db.webhookDelivery.findMany({ include: { log: true } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(failed.id)).toMatchObject({ status: "pending", nextAttemptAt: retryAt, claimedBy: null });
    expect(byId.get(succeeded.id)).toMatchObject({ status: "succeeded", nextAttemptAt: null });
    expect(byId.get(gaveUp.id)).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(byId.get(failed.id)?.log.map((log) => [log.responseStatus, log.error, log.durationMs])).toEqual([
      [500, "answered 500", 3],
    ]);
    expect(rows.flatMap((row) => row.log)).toHaveLength(3);
  });

  it("when a batch's last attempt to an endpoint succeeded, then its failure window is closed", async () => {
    await setFailingSince(new Date(T0 - 3_600_000));
    const [a, b] = (await claimed(2)) as [DueDelivery, DueDelivery];
    await recordAttempts(database.db, [
      { delivery: b, attempt: attempt(2, true), retryAt: null },
      { delivery: a, attempt: attempt(1, false), retryAt: new Date(T0) },
    ]);
    expect(await failingSince()).toBeNull();
  });

  it("when a batch's success is followed by failures, then the window opens at the first failure after the success", async () => {
    await setFailingSince(new Date(T0 - 3_600_000));
    const [a, b, c] = (await claimed(3)) as [DueDelivery, DueDelivery, DueDelivery];
    await recordAttempts(database.db, [
      { delivery: c, attempt: attempt(3, false), retryAt: new Date(T0) },
      { delivery: a, attempt: attempt(1, true), retryAt: null },
      { delivery: b, attempt: attempt(2, false), retryAt: new Date(T0) },
    ]);
    expect(await failingSince()).toEqual(new Date(T0 + 2000));
  });

  it("when a batch holds only failures, then an open window keeps its start and a closed one opens at the first", async () => {
    const opened = new Date(T0 - 3_600_000);
    await setFailingSince(opened);
    const [a, b] = (await claimed(2)) as [DueDelivery, DueDelivery];
    await recordAttempts(database.db, [{ delivery: a, attempt: attempt(1, false), retryAt: new Date(T0) }]);
    expect(await failingSince()).toEqual(opened);
    await setFailingSince(null);
    await recordAttempts(database.db, [{ delivery: b, attempt: attempt(2, false), retryAt: new Date(T0) }]);
    expect(await failingSince()).toEqual(new Date(T0 + 2000));
  });

  it("when a delivery was deleted before its outcome was written, then the batch's other deliveries are still settled", async () => {
    const [gone, kept] = (await claimed(2)) as [DueDelivery, DueDelivery];
    await database.db.webhookDelivery.delete({ where: { id: gone.id } });
    await recordAttempts(database.db, [
      { delivery: gone, attempt: attempt(1, true), retryAt: null },
      { delivery: kept, attempt: attempt(2, true), retryAt: null },
    ]);
    const rows = await database.db.webhookDelivery.findMany({ include: { log: true } });
    expect(rows.map((row) => [row.id, row.status, row.log.length])).toEqual([[kept.id, "succeeded", 1]]);
  });
});
