import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config";
import { TEST_ACCOUNT_KEY, TEST_XPUB } from "../../support/billing";
import { jsonSettingProblems } from "../../support/config-problems";

const BASE = {
  chain: "base",
  rpc_url: "https://base.example/rpc",
  usdc_contract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  confirmations: 12,
  xpub: TEST_XPUB,
};

const problemsOf = (value: unknown) => jsonSettingProblems("SETTLEMENT_CHAINS", value);

describe("SETTLEMENT_CHAINS", () => {
  it("when unset, then no chain is configured and watchers poll every 15 s", () => {
    const config = loadConfig({});
    expect(config.SETTLEMENT_CHAINS).toEqual([]);
    expect(config.SETTLEMENT_POLL_SECONDS).toBe(15);
  });

  it("when a chain is given, then it is read with a lower-cased contract, an optional start block and a day's address rest", () => {
    const [chain] = loadConfig({
      SETTLEMENT_CHAINS: JSON.stringify([{ ...BASE, start_block: 5 }]),
    }).SETTLEMENT_CHAINS;
    expect(chain).toEqual({
      chain: "base",
      rpcUrl: "https://base.example/rpc",
      usdcContract: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
      confirmations: 12,
      xpub: TEST_XPUB,
      startBlock: 5n,
      addressRestSeconds: 86_400,
    });
    const [quick] = loadConfig({
      SETTLEMENT_CHAINS: JSON.stringify([{ ...BASE, address_rest_seconds: 0 }]),
    }).SETTLEMENT_CHAINS;
    expect(quick?.addressRestSeconds).toBe(0);
  });

  it.each([
    [{ ...BASE, xpub: TEST_ACCOUNT_KEY.privateExtendedKey }, "xpub must be an extended public key"],
    [{ ...BASE, confirmations: 0 }, "confirmations must be at least 1"],
    [{ ...BASE, usdc_contract: "0x1234" }, "usdc_contract must be a 0x-prefixed 20-byte address"],
    [{ ...BASE, rpc_url: "ftp://x" }, "rpc_url must be an http(s) or ws(s) URL"],
    [{ ...BASE, chain: "Base Mainnet" }, "chain must be a lower-case name"],
    [{ ...BASE, address_rest_seconds: -1 }, "address_rest_seconds must be 0 or more"],
    [{ ...BASE, colour: "blue" }, "colour"],
  ])("when an entry is %j, then start-up stops naming the problem", (entry, message) => {
    expect(problemsOf([entry])).toContain(message);
  });

  it("when two entries name one chain, or the value is not JSON, then start-up stops", () => {
    expect(problemsOf([BASE, BASE])).toContain("chain names must be unique");
    expect(() => loadConfig({ SETTLEMENT_CHAINS: "[{" })).toThrow(ConfigError);
  });

  it("when the xpub is refused, then the message does not repeat the private key", () => {
    expect(problemsOf([{ ...BASE, xpub: TEST_ACCOUNT_KEY.privateExtendedKey }])).not.toContain(
      TEST_ACCOUNT_KEY.privateExtendedKey,
    );
  });
});
