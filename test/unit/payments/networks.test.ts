import { describe, expect, it } from "vitest";
import { isKnownUsdc, resolveNetwork } from "../../../src/payments/networks";
import { BASE_USDC, SOLANA_MAINNET, SOLANA_USDC } from "./fixtures";

describe("resolveNetwork", () => {
  it.each([
    ["base", "eip155:8453"],
    ["base-sepolia", "eip155:84532"],
    ["avalanche", "eip155:43114"],
    ["avalanche-fuji", "eip155:43113"],
    ["polygon", "eip155:137"],
    ["polygon-amoy", "eip155:80002"],
    ["sei", "eip155:1329"],
    ["iotex", "eip155:4689"],
    ["solana", SOLANA_MAINNET],
    ["solana-devnet", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"],
  ])("maps the v1 name %s to %s without a warning", (name, caip2) => {
    expect(resolveNetwork(name)).toEqual({ network: caip2, network_name: name, warning: null });
  });

  it.each([
    ["eip155:8453", "base"],
    ["eip155:84532", "base-sepolia"],
    ["eip155:137", "polygon"],
    ["eip155:42161", "arbitrum"],
    [SOLANA_MAINNET, "solana"],
  ])("names the CAIP-2 id %s as %s", (caip2, name) => {
    expect(resolveNetwork(caip2)).toEqual({ network: caip2, network_name: name, warning: null });
  });

  it("resolves base-mainnet to base but flags it", () => {
    expect(resolveNetwork("base-mainnet")).toEqual({
      network: "eip155:8453",
      network_name: "base",
      warning: "network is not a standard x402 name: base-mainnet (read as base)",
    });
  });

  it("resolves a capitalised name but flags it", () => {
    expect(resolveNetwork("Base").warning).toMatch(/not a standard x402 name: Base/);
    expect(resolveNetwork("Base").network).toBe("eip155:8453");
  });

  it("keeps an unknown v1 name as the network name, without a CAIP-2 id", () => {
    expect(resolveNetwork("foochain")).toEqual({
      network: null,
      network_name: "foochain",
      warning: "unknown network: foochain",
    });
  });

  it("keeps an unknown but well-formed CAIP-2 id without a warning", () => {
    expect(resolveNetwork("eip155:999999")).toEqual({
      network: "eip155:999999",
      network_name: null,
      warning: null,
    });
  });
});

describe("isKnownUsdc", () => {
  it("matches an EVM USDC contract regardless of checksum case", () => {
    expect(isKnownUsdc("eip155:8453", BASE_USDC.toLowerCase())).toBe(true);
  });

  it("does not match the contract on another network", () => {
    expect(isKnownUsdc("eip155:137", BASE_USDC)).toBe(false);
  });

  it("matches Solana USDC only with the exact base58 case", () => {
    expect(isKnownUsdc(SOLANA_MAINNET, SOLANA_USDC)).toBe(true);
    expect(isKnownUsdc(SOLANA_MAINNET, SOLANA_USDC.toLowerCase())).toBe(false);
  });
});
