import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServiceFigures, writeFigures } from "../../../src/activity/activity-figures-store";
import { dailyOf, type ObservedJson, observedOf } from "../../../src/activity/figures";
import type { ObservedTransfer, TransferFlag } from "../../../src/activity/wash-rules";
import { recordProbe } from "../../../src/catalogue/probe-writes";
import { inTransaction } from "../../../src/db/transaction";
import { historyListSchema } from "../../../src/http/schemas/services";
import { refreshTrust } from "../../../src/trust/refresh";
import { BASE, newAccount } from "../../support/activity";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { connectMcp, type McpConnection } from "../../support/mcp";
import { firstEndpointId } from "../../support/payments";
import { probeResult, testProbeSettings } from "../../support/probe";

/**
 * Observed figures written through the activity store (as a refresh writes them) reach the
 * searches' filters and sorts, services.csv, the history's daily series and the grade. The
 * volumes differ by one micro-USDC where doubles are equal (90071992547.40993 and …930 are the
 * same double), so only an exact comparison orders and filters them right.
 */
describe("observed figures in the searches, the exports, the history and the grade", () => {
  let database: TestDatabase;
  let api: TestApp;
  let mcp: McpConnection;
  let client: Client;
  const ids: Record<"Alpha" | "Bravo" | "Charlie", string> = { Alpha: "", Bravo: "", Charlie: "" };
  const endpoints: Record<string, string> = {};
  const asOf = new Date();
  let hash = 0;

  /** Payments to one pay_to an hour ago, each from its payer; `flagged` payments carry a self_payment flag. */
  const figures = (payments: Array<[payer: string, units: bigint, flagged?: boolean]>) => {
    const payTo = newAccount().address;
    const flags = new Map<string, TransferFlag[]>();
    const transfers: ObservedTransfer[] = payments.map(([from, value, flagged]) => {
      hash += 1;
      const txHash = `0x${hash.toString(16).padStart(64, "0")}`;
      if (flagged)
        flags.set(`${BASE}:${txHash}:0`, [
          { rule: "self_payment", transactions: [txHash], transactionCount: 1 },
        ]);
      const blockTime = new Date(asOf.getTime() - 3_600_000);
      return {
        chain: BASE,
        txHash,
        logIndex: 0,
        blockNumber: BigInt(hash),
        blockTime,
        from,
        to: payTo,
        value,
      };
    });
    const none = { volumeUsdc30d: null, txCount30d: null, uniquePayers30d: null };
    const observed = observedOf({
      payments: transfers,
      flags,
      payTo: [{ chain: BASE, address: payTo }],
      sharedWith: [],
      claimed: { directory: none, feed: { txCount30d: null, uniquePayers30d: null } },
      asOf,
    });
    return { observed, daily: dailyOf(transfers, flags) };
  };
  const write = async (
    name: keyof typeof ids,
    made: { observed: ObservedJson; daily: ServiceFigures["daily"] },
  ) => {
    await inTransaction(database.db, (tx) =>
      writeFigures(
        tx,
        [{ serviceId: ids[name], ...made }],
        new Map([[endpoints[name] as string, made.observed]]),
        asOf,
      ),
    );
  };

  const services = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/services?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.items.map((item: { name: string }) => item.name);
  };
  const endpointServices = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/endpoints?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.items.map((item: { service_name: string }) => item.service_name);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const seeded = await seedServices(database.db, [
      { name: "Alpha", endpoints: [{ method: "GET", url: "https://alpha.test/q" }] },
      { name: "Bravo", endpoints: [{ method: "GET", url: "https://bravo.test/q" }] },
      { name: "Charlie", endpoints: [{ method: "GET", url: "https://charlie.test/q" }] },
    ]);
    [ids.Alpha, ids.Bravo, ids.Charlie] = seeded;
    for (const name of ["Alpha", "Bravo", "Charlie"] as const)
      endpoints[name] = await firstEndpointId(database.db, ids[name]);
    const [p1, p2, p3, p4, p5, q1, q2] = Array.from({ length: 7 }, () => newAccount().address) as string[];
    // Alpha: 90071992547.409931 raw from five payers, one payment of 1 USDC flagged.
    await write(
      "Alpha",
      figures([
        [p1 as string, 1_000_000n, true],
        [p2 as string, 1_000_000n],
        [p3 as string, 1_000_000n],
        [p4 as string, 1_000_000n],
        [p5 as string, 90_071_992_543_409_931n],
      ]),
    );
    // Bravo: one micro-USDC less raw (the same double), nothing flagged, two payers.
    await write(
      "Bravo",
      figures([
        [q1 as string, 90_071_992_546_409_930n],
        [q2 as string, 1_000_000n],
      ]),
    );
    mcp = await connectMcp(api.app, "observed-search-test");
    client = mcp.client;
  });
  afterAll(async () => {
    await mcp.close();
    await api.close();
    await database.drop();
  });

  it("when services and endpoints are filtered by observed volume and payers, then the decimals compare exactly and entries no chain reads never match", async () => {
    for (const list of [services, endpointServices]) {
      expect(await list("min_observed_volume=90071992547.409931")).toEqual(["Alpha"]);
      expect((await list("min_observed_volume=90071992547.40993")).sort()).toEqual(["Alpha", "Bravo"]);
      expect(await list("min_observed_volume=90071992547.409932")).toEqual([]);
      expect((await list("min_observed_volume=0")).sort()).toEqual(["Alpha", "Bravo"]);
      expect(await list("min_unique_payers=3")).toEqual(["Alpha"]);
      expect((await list("min_unique_payers=2")).sort()).toEqual(["Alpha", "Bravo"]);
    }
    const bad = await request(api.app).get("/v1/services?min_observed_volume=1e9");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("min_observed_volume");
  });

  it("when sorted by observed or adjusted volume, then raw and adjusted order differ and entries without figures come last", async () => {
    for (const list of [services, endpointServices]) {
      expect(await list("sort=observed_volume")).toEqual(["Alpha", "Bravo", "Charlie"]);
      // Alpha's flagged payment leaves 90071992546.409931, below Bravo's 90071992547.40993.
      expect(await list("sort=adjusted_volume")).toEqual(["Bravo", "Alpha", "Charlie"]);
    }
    expect(await services("sort=observed_volume&order=asc")).toEqual(["Bravo", "Alpha", "Charlie"]);
    expect(await endpointServices("q=alpha&sort=observed_volume")).toEqual(["Alpha"]);
  });

  it("when an agent calls the MCP search tools with the filters and sorts, then it gets what REST answers", async () => {
    const found = await client.callTool({
      name: "search_services",
      arguments: { min_unique_payers: 2, sort: "adjusted_volume", fields: ["name"] },
    });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { items: unknown[] }).items).toEqual([
      { name: "Bravo" },
      { name: "Alpha" },
    ]);
    const hits = await client.callTool({
      name: "search_endpoints",
      arguments: { min_observed_volume: "90071992547.409931", sort: "observed_volume", fields: ["url"] },
    });
    expect(hits.isError).toBeFalsy();
    expect((hits.structuredContent as { items: unknown[] }).items).toEqual([{ url: "https://alpha.test/q" }]);
  });

  it("when a refresh writes new figures, then the next search sees them", async () => {
    const payer = newAccount().address;
    await write("Charlie", figures([[payer, 100_000_000_000_000_000n]]));
    expect(await services("sort=observed_volume")).toEqual(["Charlie", "Alpha", "Bravo"]);
    expect(await endpointServices("sort=adjusted_volume")).toEqual(["Charlie", "Bravo", "Alpha"]);
    expect(await services("min_observed_volume=100000000000")).toEqual(["Charlie"]);
  });

  it("when services.csv is exported, then raw and adjusted figures, payers, the last payment and the flags' rules are columns", async () => {
    const response = await request(api.app).get("/v1/services.csv?sort=name").buffer(true);
    expect(response.status).toBe(200);
    const [header, ...rows] = parseCsv(response.text);
    // The observed columns close the file: from observed_volume_usdc_30d to activity_flags.
    const first = (header as string[]).indexOf("observed_volume_usdc_30d");
    expect((header as string[]).slice(first)).toHaveLength(8);
    const cells = (name: string) => (rows.find((r) => r[1] === name) as string[]).slice(first);
    const lastPayment = new Date(asOf.getTime() - 3_600_000).toISOString();
    expect(cells("Alpha")).toEqual([
      "90071992547.409931",
      "90071992546.409931",
      "5",
      "4",
      "5",
      "4",
      lastPayment,
      "self_payment",
    ]);
    expect(cells("Bravo")).toEqual([
      "90071992547.409930",
      "90071992547.409930",
      "2",
      "2",
      "2",
      "2",
      lastPayment,
      "",
    ]);
  });

  it("when the history's observed_daily series is asked, then REST, MCP and history.csv give the day's raw and adjusted figures", async () => {
    const day = new Date(asOf.getTime() - 3_600_000).toISOString().slice(0, 10);
    const expected = {
      day,
      observed_volume_usdc: "90071992547.409931",
      adjusted_volume_usdc: "90071992546.409931",
      observed_tx_count: 5,
      adjusted_tx_count: 4,
      observed_unique_payers: 5,
      adjusted_unique_payers: 4,
    };
    const history = await request(api.app).get(`/v1/services/${ids.Alpha}/history?series=observed_daily`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual({ items: [expected], has_more: false, total: 1 });
    expect(historyListSchema.safeParse(history.body).success).toBe(true);
    const before = await request(api.app).get(
      `/v1/services/${ids.Alpha}/history?series=observed_daily&to=2020-01-01T00:00:00Z`,
    );
    expect(before.body.items).toEqual([]);
    const tool = await client.callTool({
      name: "get_service_history",
      arguments: { id: ids.Alpha, series: "observed_daily" },
    });
    expect(tool.isError, JSON.stringify(tool.content)).toBeFalsy();
    expect((tool.structuredContent as { items: unknown[] }).items).toEqual([expected]);
    const csv = await request(api.app)
      .get(`/v1/history.csv?series=observed_daily&service_id=${ids.Alpha}`)
      .buffer(true);
    expect(csv.status).toBe(200);
    expect(parseCsv(csv.text)).toEqual([
      [
        "service_id",
        "day",
        "observed_volume_usdc",
        "adjusted_volume_usdc",
        "observed_tx_count",
        "adjusted_tx_count",
        "observed_unique_payers",
        "adjusted_unique_payers",
      ],
      [ids.Alpha, day, "90071992547.409931", "90071992546.409931", "5", "4", "5", "4"],
    ]);
    // The figures series stays the default.
    const figuresSeries = await request(api.app).get(`/v1/services/${ids.Alpha}/history`);
    expect(figuresSeries.status).toBe(200);
  });

  it("when the trust verdicts are refreshed, then self-dealing is a named check with its evidence, lowers the grade and warns", async () => {
    for (const name of ["Alpha", "Bravo"] as const) {
      await recordProbe(database.db, {
        endpointId: endpoints[name] as string,
        probedAt: new Date(Date.now() - 60_000),
        result: probeResult(),
        drift: null,
      });
    }
    await refreshTrust(database.db, testProbeSettings().trust, testLogger);
    const detail = async (name: keyof typeof ids) =>
      (await request(api.app).get(`/v1/services/${ids[name]}`)).body as {
        grade: string;
        score: number;
        warnings: string[];
        endpoints: Array<{
          checks: Array<{ id: string; result: string; evidence: Record<string, unknown> }>;
        }>;
      };
    const alpha = await detail("Alpha");
    const bravo = await detail("Bravo");
    const checkOf = (body: typeof alpha, id: string) => body.endpoints[0]?.checks.find((c) => c.id === id);
    expect(checkOf(alpha, "self_dealing")).toMatchObject({
      result: "warn",
      evidence: {
        raw_volume_usdc: "90071992547.409931",
        adjusted_volume_usdc: "90071992546.409931",
        rules: [
          {
            rule: "self_payment",
            transfer_count: 1,
            volume_usdc: "1.000000",
            transactions: [expect.any(String)],
          },
        ],
      },
    });
    expect(checkOf(bravo, "self_dealing")?.result).toBe("pass");
    expect(alpha.warnings).toContain("self_dealing");
    expect(bravo.warnings).not.toContain("self_dealing");
    expect(alpha.score).toBeLessThan(bravo.score);
    expect(await services("no_warning=self_dealing&min_grade=F")).toEqual(["Bravo"]);
  });
});
