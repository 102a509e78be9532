import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SettlementChain, settlementChainsSchema } from "../../../src/billing/settlement-chains";
import { SettlementWatcher } from "../../../src/billing/settlement-watcher";
import { UsdcChainReader } from "../../../src/chain/usdc-transfers";
import { callAs, issueKey, type Replica, startReplica } from "../../support/accounts";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testLogger } from "../../support/logger";
import { type StartedProcess, startNpmScript } from "../../support/processes";

describe("npm run chain:local: billing tried locally", () => {
  let database: TestDatabase;
  let chainProcess: StartedProcess;
  let api: Replica | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await api?.close();
    if (chainProcess?.child.exitCode === null) chainProcess.child.kill("SIGKILL");
    await database.drop();
  });

  it("when the chain runs, then its printed SETTLEMENT_CHAINS configures billing and its pay command pays an order", async () => {
    chainProcess = startNpmScript("chain:local", ["--port", "0"], {});
    const printed = await chainProcess.waitForLog(
      (l) => String(l.msg).startsWith("SETTLEMENT_CHAINS="),
      60_000,
    );
    const value = /^SETTLEMENT_CHAINS='(.*)'$/.exec(String(printed.msg))?.[1] ?? "";
    const chains: SettlementChain[] = settlementChainsSchema.parse(JSON.parse(value));
    const [chain] = chains;
    if (!chain) throw new Error("no chain printed");
    expect(chainProcess.lines.map((l) => l.msg)).toContain(
      `npm run chain:local -- pay <deposit address> <amount> --rpc-url ${chain.rpcUrl}`,
    );

    api = await startReplica(database, { settlementChains: chains });
    const key = await issueKey(database.db, "shop", "live", ["billing:read", "billing:write"]);
    const watcher = new SettlementWatcher(
      database.db,
      chain,
      new UsdcChainReader(chain.rpcUrl, chain.usdcContract),
      testLogger,
    );
    await watcher.catchUp();
    const created = await callAs(api.url, key, "/v1/payment-orders", "POST", {
      merchant_order_id: "local-1",
      amount: "12.5",
      accepted_assets: [{ chain: "base", asset: "USDC" }],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(created.status).toBe(201);
    const address = created.body.payment_instructions[0].address as string;

    const pay = startNpmScript("chain:local", ["pay", address, "12.50", "--rpc-url", chain.rpcUrl], {});
    expect(await pay.exited, pay.stderr()).toBe(0);
    expect(pay.lines).toHaveLength(1);
    expect(pay.lines[0]).toMatchObject({ transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    await watcher.catchUp();
    const order = await callAs(api.url, key, `/v1/payment-orders/${created.body.id as string}`);
    expect(order.body).toMatchObject({ status: "paid", received_amount: "12.500000" });

    chainProcess.child.kill("SIGINT");
    expect(await chainProcess.exited).toBe(0);
  }, 120_000);
});
