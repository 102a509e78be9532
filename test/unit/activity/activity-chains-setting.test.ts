import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config";
import { jsonSettingProblems } from "../../support/config-problems";

const BASE = {
  chain: "eip155:8453",
  rpc_url: "https://base.example/rpc",
  usdc_contract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  confirmations: 12,
};

const problemsOf = (value: unknown) => jsonSettingProblems("ACTIVITY_CHAINS", value);

describe("ACTIVITY_CHAINS", () => {
  it("when unset, then no chain is read and rounds are a minute apart", () => {
    const config = loadConfig({});
    expect(config.ACTIVITY_CHAINS).toEqual([]);
    expect(config.ACTIVITY_POLL_SECONDS).toBe(60);
  });

  it("when a chain is given, then a 30-day backfill and the default RPC limits apply", () => {
    const [chain] = loadConfig({ ACTIVITY_CHAINS: JSON.stringify([BASE]) }).ACTIVITY_CHAINS;
    expect(chain).toEqual({
      chain: "eip155:8453",
      rpcUrl: "https://base.example/rpc",
      usdcContract: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
      confirmations: 12,
      backfillDays: 30,
      startBlock: undefined,
      limits: {
        maxBlockRange: 2000,
        addressesPerRequest: 100,
        requestsPerSecond: 10,
        maxAttempts: 6,
        backoffMs: 500,
        timeoutMs: 30_000,
      },
    });
  });

  it("when the RPC limits and a start block are given, then they are used", () => {
    const [chain] = loadConfig({
      ACTIVITY_CHAINS: JSON.stringify([
        { ...BASE, start_block: 7, max_block_range: 500, addresses_per_request: 20, requests_per_second: 3 },
      ]),
    }).ACTIVITY_CHAINS;
    expect(chain?.startBlock).toBe(7n);
    expect(chain?.limits).toMatchObject({
      maxBlockRange: 500,
      addressesPerRequest: 20,
      requestsPerSecond: 3,
    });
  });

  it("when the chain is not CAIP-2, a key is unknown or a chain repeats, then each is named", () => {
    expect(problemsOf([{ ...BASE, chain: "base" }])).toContain("CAIP-2");
    expect(problemsOf([{ ...BASE, xpub: "x" }])).toContain("unknown key(s) xpub");
    expect(problemsOf([BASE, BASE])).toContain("chains must be unique");
  });
});
