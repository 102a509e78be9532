import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordProbe } from "../../../src/catalogue/probe-writes";
import type { PaymentOption } from "../../../src/payments";
import type { ProbeResult } from "../../../src/probe/probe-endpoint";
import { handleProbeJob } from "../../../src/probe/worker";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { probeResult as result, testWorkerDeps } from "../../support/probe";
import { v1ChallengeBody } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";
import { BASE_USDC, probeOption as option, PAY_TO_EVM, POLYGON_USDC } from "../../unit/payments/fixtures";

const OTHER_PAYEE = "0x1111111111111111111111111111111111111111";

const at = (iso: string) => new Date(iso);

describe("recording probes", () => {
  let database: TestDatabase;
  let endpointId: string;
  const site = new X402Fixture();

  beforeAll(async () => {
    database = await createTestDatabase();
    await site.start();
    site.set("/pay", { status: 402, body: v1ChallengeBody() });
  });
  afterAll(async () => {
    await site.stop();
    await database.drop();
  });
  beforeEach(async () => {
    await database.db.service.deleteMany();
    await seedServices(database.db, [
      { name: "Weather", endpoints: [{ method: "GET", url: site.url("/pay") }] },
    ]);
    endpointId = (await database.db.endpoint.findFirstOrThrow()).id;
  });

  const endpoint = () => database.db.endpoint.findUniqueOrThrow({ where: { id: endpointId } });
  const probeOptions = () =>
    database.db.paymentOption.findMany({
      where: { endpointId, origin: "probe" },
      orderBy: { position: "asc" },
    });

  it("when a valid challenge is recorded, then history, last-probe columns, verification and probe options are stored", async () => {
    const outcome = await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T10:00:00Z"),
      result: result({
        options: [option(), option({ network: "eip155:137", network_name: "polygon", asset: POLYGON_USDC })],
      }),
      drift: [],
    });
    expect(outcome).toBe("recorded");
    expect(await endpoint()).toMatchObject({
      lastProbedAt: at("2026-03-01T10:00:00Z"),
      lastProbeStatus: 402,
      lastVerifiedAt: at("2026-03-01T10:00:00Z"),
    });
    const probe = await database.db.endpointProbe.findFirstOrThrow({ where: { endpointId } });
    expect(probe).toMatchObject({
      outcome: "challenge",
      statusCode: 402,
      latencyMs: 42.5,
      challengeValid: true,
      x402Version: 1,
      error: null,
      drift: [],
    });
    expect((probe.options as unknown as PaymentOption[]).map((o) => o.network)).toEqual([
      "eip155:8453",
      "eip155:137",
    ]);
    const stored = await probeOptions();
    expect(
      stored.map((o) => [
        o.position,
        o.network,
        o.amountAtomic?.toFixed(),
        o.priceUsdc?.toFixed(),
        o.sourceId,
      ]),
    ).toEqual([
      [0, "eip155:8453", "10000", "0.01", null],
      [1, "eip155:137", "10000", "0.01", null],
    ]);
  });

  it("when a later probe finds no challenge, then lastVerifiedAt keeps the last valid one and probe options are cleared", async () => {
    await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T10:00:00Z"),
      result: result(),
      drift: [],
    });
    await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T11:00:00Z"),
      result: result({
        outcome: "no_challenge",
        statusCode: 200,
        challengeValid: false,
        x402Version: null,
        options: [],
      }),
      drift: null,
    });
    expect(await endpoint()).toMatchObject({
      lastProbedAt: at("2026-03-01T11:00:00Z"),
      lastProbeStatus: 200,
      lastVerifiedAt: at("2026-03-01T10:00:00Z"),
    });
    expect(await probeOptions()).toEqual([]);
  });

  it("when the verdict flips, then one endpoint.verification_changed is emitted with the probes; repeats emit none", async () => {
    const probe = (hour: number, overrides: Partial<ProbeResult> = {}) =>
      recordProbe(database.db, {
        endpointId,
        probedAt: at(`2026-04-01T${String(hour).padStart(2, "0")}:00:00Z`),
        result: result(overrides),
        drift: [],
      });
    const before = await database.db.event.count();
    await probe(1);
    await probe(2);
    await probe(3, { outcome: "no_challenge", statusCode: 200, challengeValid: false, options: [] });
    await probe(4, { outcome: "no_challenge", statusCode: 200, challengeValid: false, options: [] });
    const events = await database.db.event.findMany({ orderBy: { seq: "asc" }, skip: before });
    expect(events.map((event) => [event.type, event.data])).toEqual([
      [
        "endpoint.verification_changed",
        expect.objectContaining({ old_outcome: "challenge", new_outcome: "no_challenge" }),
      ],
    ]);
  });

  it("when an invalid challenge is recorded, then the endpoint is not verified but its probe options are replaced", async () => {
    await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T10:00:00Z"),
      result: result({
        challengeValid: false,
        error: "no well-formed payment option",
        options: [option({ amount_atomic: null, price_usdc: null })],
      }),
      drift: null,
    });
    expect((await endpoint()).lastVerifiedAt).toBeNull();
    expect((await probeOptions()).map((o) => o.amountAtomic)).toEqual([null]);
  });

  it("when a probe fails on the network, then the status is cleared but the last known probe options stay", async () => {
    await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T10:00:00Z"),
      result: result(),
      drift: [],
    });
    await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T11:00:00Z"),
      result: result({
        outcome: "network_error",
        statusCode: null,
        challengeValid: false,
        x402Version: null,
        options: [],
        error: "timeout",
      }),
      drift: null,
    });
    expect(await endpoint()).toMatchObject({
      lastProbeStatus: null,
      lastVerifiedAt: at("2026-03-01T10:00:00Z"),
    });
    expect(await probeOptions()).toHaveLength(1);
    const latest = await database.db.endpointProbe.findFirstOrThrow({
      where: { endpointId },
      orderBy: { probedAt: "desc" },
    });
    expect(latest).toMatchObject({ outcome: "network_error", options: null, drift: null, error: "timeout" });
  });

  it("when an older probe finishes after a newer one, then it is kept as history without touching the summary", async () => {
    await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T11:00:00Z"),
      result: result({ outcome: "http_error", statusCode: 503, challengeValid: false, options: [] }),
      drift: null,
    });
    const outcome = await recordProbe(database.db, {
      endpointId,
      probedAt: at("2026-03-01T10:00:00Z"),
      result: result(),
      drift: [],
    });
    expect(outcome).toBe("stale");
    // The summary stays on the newer probe; the older valid challenge is still the latest proof.
    expect(await endpoint()).toMatchObject({
      lastProbedAt: at("2026-03-01T11:00:00Z"),
      lastProbeStatus: 503,
      lastVerifiedAt: at("2026-03-01T10:00:00Z"),
    });
    expect(await probeOptions()).toEqual([]);
    expect(await database.db.endpointProbe.count({ where: { endpointId } })).toBe(2);
  });

  it("when the endpoint was removed before recording, then nothing is stored", async () => {
    await database.db.endpoint.delete({ where: { id: endpointId } });
    expect(
      await recordProbe(database.db, { endpointId, probedAt: new Date(), result: result(), drift: [] }),
    ).toBe("gone");
    expect(await database.db.endpointProbe.count()).toBe(0);
  });

  describe("a probe job end to end", () => {
    const workerDeps = () => testWorkerDeps(database.db);

    it("when the listing claims another price, a network not offered and another payee, then the drift is stored", async () => {
      await database.db.paymentOption.createMany({
        data: [
          {
            endpointId,
            origin: "listing",
            position: 0,
            network: "eip155:8453",
            networkName: "base",
            asset: BASE_USDC,
            assetSymbol: "USDC",
            amountAtomic: "20000",
            priceUsdc: "0.02",
            payTo: OTHER_PAYEE,
            observedAt: new Date(),
          },
          {
            endpointId,
            origin: "listing",
            position: 1,
            network: "eip155:137",
            networkName: "polygon",
            asset: POLYGON_USDC,
            assetSymbol: "USDC",
            amountAtomic: "10000",
            priceUsdc: "0.01",
            payTo: PAY_TO_EVM,
            observedAt: new Date(),
          },
        ],
      });
      const output = await handleProbeJob(workerDeps(), { endpointId, enqueuedAt: new Date().toISOString() });
      expect(output).toEqual({ outcome: "challenge", statusCode: 402, error: null, recorded: "recorded" });
      const probe = await database.db.endpointProbe.findFirstOrThrow({ where: { endpointId } });
      expect(probe.drift).toEqual([
        {
          kind: "network",
          network: "eip155:137",
          claimed: "eip155:137",
          observed: null,
          message: "claimed network eip155:137 is not offered",
        },
        {
          kind: "price",
          network: "eip155:8453",
          claimed: "0.02 USDC",
          observed: "0.01 USDC",
          message: "price on eip155:8453 is 0.01 USDC, listing says 0.02 USDC",
        },
        {
          kind: "pay_to",
          network: "eip155:8453",
          claimed: OTHER_PAYEE,
          observed: PAY_TO_EVM,
          message: `pay_to on eip155:8453 is ${PAY_TO_EVM}, listing says ${OTHER_PAYEE}`,
        },
      ]);
    });

    it("when the listing states no payment options, then there is nothing to compare and drift stays empty", async () => {
      await handleProbeJob(workerDeps(), { endpointId, enqueuedAt: new Date().toISOString() });
      expect((await database.db.endpointProbe.findFirstOrThrow({ where: { endpointId } })).drift).toBeNull();
    });

    it("when the endpoint was probed after the job was queued, then the job is skipped without a request", async () => {
      const enqueuedAt = new Date(Date.now() - 60_000).toISOString();
      await database.db.endpoint.update({ where: { id: endpointId }, data: { lastProbedAt: new Date() } });
      const before = site.requests.length;
      const deps = workerDeps();
      expect(await handleProbeJob(deps, { endpointId, enqueuedAt })).toEqual({ skipped: "already probed" });
      expect(site.requests.length).toBe(before);
      expect(deps.counts).toEqual({ probed: 0, skipped: 1 });
    });

    it("when the job's endpoint no longer exists, then it is skipped", async () => {
      await database.db.endpoint.delete({ where: { id: endpointId } });
      expect(
        await handleProbeJob(workerDeps(), { endpointId, enqueuedAt: new Date().toISOString() }),
      ).toEqual({
        skipped: "endpoint gone",
      });
    });
  });
});
