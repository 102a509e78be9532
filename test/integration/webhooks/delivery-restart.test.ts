import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureOrganisation } from "../../../src/accounts/organisations";
import { inTransaction } from "../../../src/db/transaction";
import { emitEvents } from "../../../src/events/emit";
import { SecretKeyRing } from "../../../src/webhooks/secret-keys";
import { createWebhookEndpoint } from "../../../src/webhooks/webhook-endpoints";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type StartedProcess, startEntryPoint } from "../../support/processes";
import { startWebhookReceiver } from "../../support/webhook-receiver";

/** The key the workers are given: the endpoint's secret is sealed with it here. */
const SECRET_KEY = randomBytes(32);

describe("webhook delivery across a killed process", () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const started: StartedProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver();
    // The first attempt is held: the worker is mid-delivery when it is killed.
    receiver.holds = 1;
  });
  afterAll(async () => {
    for (const process of started) if (process.child.exitCode === null) process.child.kill("SIGKILL");
    await receiver.close();
    await database.drop();
  });

  const worker = async () => {
    const process = startEntryPoint("jobs/worker.ts", [], {
      DATABASE_URL: database.url,
      WEBHOOK_SECRET_KEY: SECRET_KEY.toString("hex"),
      PROBE_ENABLED: "false",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    });
    started.push(process);
    await process.waitForLog((line) => line.msg === "worker ready");
    return process;
  };

  it("when `npm run worker` is killed mid-delivery after the change committed, then a worker started afterwards delivers it, verified by the library", async () => {
    const organisation = await ensureOrganisation(database.db, "acme");
    const outcome = await createWebhookEndpoint(
      database.db,
      new SecretKeyRing(SECRET_KEY),
      { organisationId: organisation.id, environment: "live" },
      {
        url: `${receiver.url}/hook`,
        description: "",
        enabledEvents: ["service.listed"],
        redactMetadata: false,
      },
    );
    if (!("created" in outcome)) throw new Error("the free plan allows one webhook endpoint");
    const { secret } = outcome.created;
    const first = await worker();
    const serviceId = "00000000-0000-4000-8000-000000000001";
    const firstRequest = receiver.next();
    // The change's commit: the event and its delivery row, in one transaction.
    await inTransaction(database.db, (tx) =>
      emitEvents(tx, [
        {
          type: "service.listed",
          serviceId,
          data: {
            service: { id: serviceId, name: "alpha", source: "directory", detail_url: "https://d.example/a" },
          },
        },
      ]),
    );
    const held = await firstRequest;
    first.child.kill("SIGKILL");
    await first.exited;
    expect(await database.db.webhookDelivery.findFirstOrThrow()).toMatchObject({
      status: "pending",
      attempts: 1,
    });

    const secondRequest = receiver.next();
    const second = await worker();
    const delivered = await secondRequest;
    const event = new Webhook(secret).verify(delivered.body, delivered.headers) as {
      type: string;
      data: { service: { name: string } };
    };
    expect(event).toMatchObject({ type: "service.listed", data: { service: { name: "alpha" } } });
    expect(delivered.headers["webhook-id"]).toBe(held.headers["webhook-id"]);

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const row = await database.db.webhookDelivery.findFirstOrThrow({ include: { log: true } });
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, claimedBy: null });
    // The killed attempt left no log row; the one that succeeded did.
    expect(row.log.map((attempt) => attempt.responseStatus)).toEqual([200]);
    expect(receiver.received).toHaveLength(2);
  });
});
