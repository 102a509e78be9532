import { describe, expect, it } from "vitest";
import { normaliseAccepts, normaliseRequirement } from "../../../src/payments/normalise";
import type { PaymentOption } from "../../../src/payments/types";
import {
  ARBITRUM_USDC,
  BASE_SEPOLIA_USDC,
  BASE_USDC,
  PAY_TO_EVM,
  PAY_TO_SOLANA,
  POLYGON_USDC,
  SOLANA_MAINNET,
  SOLANA_USDC,
  v1Entry,
  v2Entry,
  v2SolanaEntry,
} from "./fixtures";

/** Unwraps a normalised entry, failing the test if the entry was skipped. */
function normalise(entry: unknown, version: number | null = null) {
  const result = normaliseRequirement(entry, version);
  if (typeof result === "string") throw new Error(`entry skipped: ${result}`);
  return result;
}

describe("normaliseRequirement: spec-conformant entries", () => {
  it("normalises a v1 Base USDC entry", () => {
    expect(normalise(v1Entry(), 1)).toEqual({
      wellFormed: true,
      option: {
        scheme: "exact",
        network: "eip155:8453",
        network_name: "base",
        asset: BASE_USDC,
        asset_symbol: "USDC",
        amount_atomic: "10000",
        price_usdc: "0.01",
        pay_to: PAY_TO_EVM,
        max_timeout_seconds: 300,
        warnings: [],
        payable: true,
        unpayable_reasons: [],
      } satisfies PaymentOption,
    });
  });

  it("normalises a v2 Solana USDC entry", () => {
    const { option, wellFormed } = normalise(v2SolanaEntry(), 2);
    expect(wellFormed).toBe(true);
    expect(option).toMatchObject({
      network: SOLANA_MAINNET,
      network_name: "solana",
      asset: SOLANA_USDC,
      asset_symbol: "USDC",
      amount_atomic: "1500000",
      price_usdc: "1.5",
      pay_to: PAY_TO_SOLANA,
    });
    expect(option.warnings).toEqual([]);
  });

  it.each([
    ["eip155:137", POLYGON_USDC, "polygon"],
    ["eip155:42161", ARBITRUM_USDC, "arbitrum"],
    ["eip155:84532", BASE_SEPOLIA_USDC, "base-sepolia"],
  ])("prices USDC on %s", (network, asset, name) => {
    const { option } = normalise(v2Entry({ network, asset, amount: "1" }), 2);
    expect(option).toMatchObject({ network_name: name, asset_symbol: "USDC", price_usdc: "0.000001" });
  });

  it("infers v1 from maxAmountRequired when the version is not declared", () => {
    const { option, wellFormed } = normalise(v1Entry(), null);
    expect(wellFormed).toBe(true);
    expect(option.amount_atomic).toBe("10000");
  });

  it("keeps a non-USDC asset's atomic amount but gives no USDC price", () => {
    const weth = "0x4200000000000000000000000000000000000006";
    const { option, wellFormed } = normalise(v2Entry({ asset: weth, amount: "1000000000000000" }), 2);
    expect(wellFormed).toBe(true);
    expect(option).toMatchObject({ asset: weth, asset_symbol: null, amount_atomic: "1000000000000000" });
    expect(option.price_usdc).toBeNull();
  });
});

describe("normaliseRequirement: values seen in the wild are kept and flagged", () => {
  it("reads a dollar amount as USDC when the asset is USDC", () => {
    const { option, wellFormed } = normalise(v2Entry({ amount: "$0.01" }), 2);
    expect(wellFormed).toBe(false);
    expect(option.amount_atomic).toBe("10000");
    expect(option.price_usdc).toBe("0.01");
    expect(option.warnings).toContain("amount is not an atomic integer: $0.01 (read as 0.01 USDC)");
  });

  it("does not guess the unit of a decimal amount for an unknown token", () => {
    const { option } = normalise(
      v2Entry({ amount: "0.5", asset: "0x1111111111111111111111111111111111111111" }),
      2,
    );
    expect(option.amount_atomic).toBeNull();
    expect(option.warnings).toContain("amount is not an atomic integer: 0.5 (unit unknown)");
  });

  it("keeps the symbol USDC given as asset and prices it with a warning", () => {
    const { option } = normalise(v2Entry({ asset: "USDC", amount: "50000" }), 2);
    expect(option).toMatchObject({ asset: "USDC", asset_symbol: "USDC", price_usdc: "0.05" });
    expect(option.warnings).toContain(
      "asset is a symbol, not a token address: USDC (assumed 6-decimal USDC)",
    );
  });

  it("resolves network base-mainnet to Base with a warning", () => {
    const { option } = normalise(v1Entry({ network: "base-mainnet" }), 1);
    expect(option.network).toBe("eip155:8453");
    expect(option.warnings).toContain("network is not a standard x402 name: base-mainnet (read as base)");
  });

  it("flags a v1 network name inside a v2 entry through the spec check", () => {
    const { option, wellFormed } = normalise(v2Entry({ network: "base" }), 2);
    expect(wellFormed).toBe(false);
    expect(option.network).toBe("eip155:8453");
    expect(option.warnings[0]).toMatch(/^not valid x402 v2 payment requirements: network: .*CAIP-2/);
  });

  it("keeps an amount given as a JSON number, flagged and not well-formed", () => {
    const { option, wellFormed } = normalise(v2Entry({ amount: 10000 }), 2);
    expect(wellFormed).toBe(false);
    expect(option.amount_atomic).toBe("10000");
    expect(option.warnings).toContain("amount is a number: 10000");
  });

  it("keeps an entry without payTo, flagged by the spec check and by name", () => {
    const entry = v2Entry();
    delete entry.payTo;
    const { option, wellFormed } = normalise(entry, 2);
    expect(wellFormed).toBe(false);
    expect(option.pay_to).toBeNull();
    expect(option.price_usdc).toBe("0.0025");
    expect(option.warnings).toContain("payTo is missing");
    expect(option.warnings[0]).toMatch(/payTo: Required/);
  });

  it("reads maxAmountRequired in a v2 entry, with a warning", () => {
    const entry = v2Entry({ maxAmountRequired: "20000" });
    delete entry.amount;
    const { option } = normalise(entry, 2);
    expect(option.amount_atomic).toBe("20000");
    expect(option.warnings).toContain("v2 entry uses maxAmountRequired instead of amount");
  });

  it("does not call a USDC contract of another chain USDC", () => {
    const { option } = normalise(v2Entry({ asset: BASE_SEPOLIA_USDC }), 2);
    expect(option.asset_symbol).toBeNull();
    expect(option.price_usdc).toBeNull();
    expect(option.warnings).toContain("asset is the USDC contract of eip155:84532, not of eip155:8453");
  });

  it("reads maxTimeoutSeconds given as a string, with a warning", () => {
    const { option } = normalise(v2Entry({ maxTimeoutSeconds: "120" }), 2);
    expect(option.max_timeout_seconds).toBe(120);
    expect(option.warnings).toContain("maxTimeoutSeconds is a string: 120");
  });

  it("returns a reason instead of an option for a non-object entry", () => {
    expect(normaliseRequirement("exact", 2)).toBe("not an object (string)");
    expect(normaliseRequirement([v2Entry()], 2)).toBe("not an object (array)");
  });
});

describe("normaliseAccepts", () => {
  it("skips non-object entries with their index and keeps the rest", () => {
    const result = normaliseAccepts([v2Entry(), null, 42, v2SolanaEntry({ amount: "$1" })], 2);
    expect(result.options.map((o) => o.network_name)).toEqual(["base", "solana"]);
    expect(result.wellFormedCount).toBe(1);
    expect(result.warnings).toEqual([
      "accepts[1] skipped: not an object (null)",
      "accepts[2] skipped: not an object (number)",
    ]);
  });

  it("reports accepts that is missing or not an array", () => {
    expect(normaliseAccepts(undefined, 1)).toEqual({
      options: [],
      wellFormedCount: 0,
      warnings: ["accepts is missing"],
    });
    expect(normaliseAccepts({ network: "base" }, 1).warnings).toEqual(["accepts is not an array (object)"]);
  });
});
