import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityWatcher } from "../../../src/activity/activity-watcher";
import { refreshActivity } from "../../../src/activity/refresh-activity";
import { TransferLogReader } from "../../../src/chain/transfer-logs";
import { activityChain, BASE, endpointIdsOf, newAccount, publishPayTo } from "../../support/activity";
import { type LocalChain, startLocalChain } from "../../support/activity-chain";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";

/**
 * Honest payers, a self-payment, a round trip, a funded payer and one dominant payer, paid on a
 * real local chain the way x402 settles (EIP-3009 authorizations) and by plain transfers.
 */
describe("observed volume and self-dealing flags from a real local chain", () => {
  let database: TestDatabase;
  let chain: LocalChain;
  let api: TestApp;
  let server: http.Server;
  let mcp: Client;
  const ids = { honest: "", washer: "", dominant: "", twin: "" };
  const honestPayTo = newAccount();
  const washPayTo = newAccount();
  const washPayTo2 = newAccount();
  const dominantPayTo = newAccount();
  const [p1, p2, p3, p4, p5, p6] = [
    newAccount(),
    newAccount(),
    newAccount(),
    newAccount(),
    newAccount(),
    newAccount(),
  ];
  const tx = { selfPayment: 0n, roundTripPayment: 0n, roundTripReturn: 0n, funding: 0n, funded: 0n };

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await startLocalChain();
    const seeded = await seedServices(database.db, [
      {
        name: "Honest",
        volumeUsdc30d: "1.000000",
        txCount30d: 3,
        endpoints: [{ method: "GET", url: "https://honest.test/q" }],
      },
      {
        name: "Washer",
        endpoints: [
          { method: "GET", url: "https://washer.test/a" },
          { method: "GET", url: "https://washer.test/b" },
        ],
      },
      { name: "Dominant", endpoints: [{ method: "GET", url: "https://dominant.test/q" }] },
      { name: "Twin", endpoints: [{ method: "GET", url: "https://twin.test/q" }] },
    ]);
    [ids.honest, ids.washer, ids.dominant, ids.twin] = seeded;
    const [washA, washB] = await endpointIdsOf(database.db, ids.washer);
    await publishPayTo(
      database.db,
      (await endpointIdsOf(database.db, ids.honest))[0] as string,
      honestPayTo.address,
    );
    await publishPayTo(database.db, washA as string, washPayTo.address);
    await publishPayTo(database.db, washB as string, washPayTo2.address);
    await publishPayTo(
      database.db,
      (await endpointIdsOf(database.db, ids.dominant))[0] as string,
      dominantPayTo.address,
    );
    // The same pay_to under another origin: its payments count for both.
    await publishPayTo(
      database.db,
      (await endpointIdsOf(database.db, ids.twin))[0] as string,
      honestPayTo.address,
    );

    for (const payer of [p1, p2, p3, p5, p6, washPayTo2]) await chain.pay(payer.address, 5_000_000n);
    await chain.pay(washPayTo.address, 5_000_000n); // the funder is an ordinary customer of Washer
    // Honest: three payments by two payers.
    await chain.payWithAuthorization(p1.key, honestPayTo.address, 10_000n);
    await chain.payWithAuthorization(p2.key, honestPayTo.address, 10_000n);
    await chain.payWithAuthorization(p1.key, honestPayTo.address, 10_000n);
    // Washer: its second pay_to pays the first; a payer gets 60 % back; a payer paid with its money.
    tx.selfPayment = await chain.payWithAuthorization(washPayTo2.key, washPayTo.address, 500_000n);
    tx.roundTripPayment = await chain.payWithAuthorization(p3.key, washPayTo.address, 1_000_000n);
    tx.roundTripReturn = await chain.payWithAuthorization(washPayTo.key, p3.address, 600_000n);
    tx.funding = await chain.payWithAuthorization(washPayTo.key, p4.address, 2_000_000n);
    tx.funded = await chain.payWithAuthorization(p4.key, washPayTo.address, 200_000n);
    // Dominant: one payer 20 times 0.05, another once 0.1 (1.0 of 1.1: 91 %).
    for (let i = 0; i < 20; i += 1) await chain.payWithAuthorization(p5.key, dominantPayTo.address, 50_000n);
    await chain.payWithAuthorization(p6.key, dominantPayTo.address, 100_000n);
    await chain.mine(2);

    const settings = activityChain(chain.rpcUrl, chain.usdc);
    const reader = new TransferLogReader(settings.rpcUrl, settings.usdcContract, settings.limits);
    await new ActivityWatcher(database.db, settings, reader, testLogger).catchUp();

    api = createTestApp(database);
    server = http.createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    mcp = new Client({ name: "activity-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(
        new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
      ),
    );
  });
  afterAll(async () => {
    await mcp.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await chain.close();
    await database.drop();
  });

  const detail = async (id: string) => {
    const response = await request(api.app).get(`/v1/services/${id}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const flaggedEvents = () =>
    database.db.event.findMany({ where: { type: "service.activity_flagged" }, orderBy: { seq: "asc" } });

  it("when the figures are computed, then honest payments count in full, and a pay_to shared by two origins counts for each and says so", async () => {
    expect(await refreshActivity(database.db, [BASE])).toBeGreaterThan(0);
    const honest = (await detail(ids.honest)).observed;
    const expected = { volume_usdc: "0.030000", tx_count: 3, unique_payers: 2 };
    expect(honest.raw).toEqual({ "24h": expected, "7d": expected, "30d": expected });
    expect(honest.adjusted).toEqual(honest.raw);
    expect(honest.flags).toEqual([]);
    expect(honest.shared_with).toEqual([ids.twin]);
    expect(honest.pay_to).toEqual([{ chain: BASE, address: honestPayTo.address }]);
    expect(honest.daily).toHaveLength(1);
    expect(honest.daily[0].raw).toEqual(expected);
    // The directory claims 1 USDC against 0.03 observed.
    expect(honest.claims[0]).toEqual({
      source: "directory",
      figure: "volume_usdc",
      claimed: "1.000000",
      observed: "0.030000",
      ratio: 33.33,
    });
    expect(honest.warnings).toEqual(["claims_exceed_observed"]);
    const twin = (await detail(ids.twin)).observed;
    expect(twin.raw["30d"]).toEqual(expected);
    expect(twin.shared_with).toEqual([ids.honest]);
  });

  it("when a service pays itself, gets paid back and funds its payers, then each payment carries its rule and the transactions behind it, and adjusted figures leave them out", async () => {
    const washer = await detail(ids.washer);
    const observed = washer.observed;
    // 5.0 from the funder to each pay_to, 0.5 from its own pay_to, 1.0 round-tripped, 0.2 self-funded.
    expect(observed.raw["30d"]).toEqual({ volume_usdc: "11.700000", tx_count: 5, unique_payers: 4 });
    expect(observed.adjusted["30d"]).toEqual({ volume_usdc: "10.000000", tx_count: 2, unique_payers: 1 });
    const byRule = Object.fromEntries(observed.flags.map((flag: { rule: string }) => [flag.rule, flag]));
    expect(Object.keys(byRule).sort()).toEqual(["funded_by_pay_to", "round_trip", "self_payment"]);
    expect(byRule.self_payment.transfers[0]).toMatchObject({
      payer: washPayTo2.address,
      pay_to: washPayTo.address,
      value_usdc: "0.500000",
      evidence_count: 1,
    });
    const hashOf = async (block: bigint) =>
      (await chain.client.getBlock({ blockNumber: block })).transactions[0];
    expect(byRule.round_trip.transfers[0]).toMatchObject({
      payer: p3.address,
      tx_hash: await hashOf(tx.roundTripPayment),
      evidence: [await hashOf(tx.roundTripReturn)],
    });
    expect(byRule.funded_by_pay_to.transfers[0]).toMatchObject({
      payer: p4.address,
      tx_hash: await hashOf(tx.funded),
      evidence: [await hashOf(tx.funding)],
    });
    // Each endpoint shows its own pay_to's figures.
    const [a, b] = washer.endpoints;
    expect(a.observed.raw["30d"]).toEqual({ volume_usdc: "6.700000", tx_count: 4, unique_payers: 4 });
    expect(a.observed.adjusted["30d"]).toEqual({ volume_usdc: "5.000000", tx_count: 1, unique_payers: 1 });
    expect(b.observed.raw["30d"]).toEqual({ volume_usdc: "5.000000", tx_count: 1, unique_payers: 1 });
  });

  it("when one payer makes over 80 % of a pay_to's volume in 20 payments, then those payments are flagged concentration", async () => {
    const observed = (await detail(ids.dominant)).observed;
    expect(observed.raw["30d"]).toEqual({ volume_usdc: "1.100000", tx_count: 21, unique_payers: 2 });
    expect(observed.adjusted["30d"]).toEqual({ volume_usdc: "0.100000", tx_count: 1, unique_payers: 1 });
    expect(observed.flags).toHaveLength(1);
    expect(observed.flags[0]).toMatchObject({
      rule: "concentration",
      transfer_count: 20,
      volume_usdc: "1.000000",
    });
    expect(observed.flags[0].transfers[0].evidence_count).toBe(20);
  });

  it("when flags first appear, then one service.activity_flagged event per service carries them, and a second refresh emits none", async () => {
    const events = await flaggedEvents();
    expect(events.map((event) => event.serviceId).sort()).toEqual([ids.dominant, ids.washer].sort());
    const washer = events.find((event) => event.serviceId === ids.washer)?.data as {
      rules: string[];
      flagged_transfers: number;
    };
    expect(washer.rules).toEqual(["funded_by_pay_to", "round_trip", "self_payment"]);
    expect(washer.flagged_transfers).toBe(3);
    expect(await refreshActivity(database.db, [BASE])).toBe(0);
    expect(await flaggedEvents()).toHaveLength(2);
  });

  it("when an agent asks the MCP detail tool, then the observed block comes as REST shows it", async () => {
    const result = await mcp.callTool({
      name: "get_service",
      arguments: { id: ids.dominant, fields: ["observed"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ observed: (await detail(ids.dominant)).observed });
  });
});
