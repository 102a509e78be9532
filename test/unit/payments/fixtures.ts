import type { PaymentOption } from "../../../src/payments/types";

/**
 * "accepts" entries shaped like real x402 402 answers (field names from @x402/core's schemas).
 * Addresses of the payees are made up; token contracts are the real USDC deployments.
 */

export const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const POLYGON_USDC = "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359";
export const ARBITRUM_USDC = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
export const SOLANA_USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
export const SOLANA_MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
export const PAY_TO_EVM = "0x7d9A5C1E2b3F4a6B8c0D1e2F3a4B5c6D7e8F9a0B";
export const PAY_TO_SOLANA = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";

export function v1Entry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: "exact",
    network: "base",
    maxAmountRequired: "10000",
    resource: "https://api.weatherwise.example/v1/forecast",
    description: "7-day forecast for a city",
    mimeType: "application/json",
    payTo: PAY_TO_EVM,
    maxTimeoutSeconds: 300,
    asset: BASE_USDC,
    outputSchema: { input: { type: "http", method: "GET", queryParams: { city: "string" } }, output: null },
    extra: { name: "USD Coin", version: "2" },
    ...overrides,
  };
}

export function v2Entry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: "exact",
    network: "eip155:8453",
    amount: "2500",
    asset: BASE_USDC,
    payTo: PAY_TO_EVM,
    maxTimeoutSeconds: 60,
    extra: { name: "USD Coin", version: "2" },
    ...overrides,
  };
}

export function v2SolanaEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: "exact",
    network: SOLANA_MAINNET,
    amount: "1500000",
    asset: SOLANA_USDC,
    payTo: PAY_TO_SOLANA,
    maxTimeoutSeconds: 60,
    extra: { feePayer: "2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4" },
    ...overrides,
  };
}

/** A payment option as a probe reads it from a challenge: USDC on Base, a cent. */
export function probeOption(overrides: Partial<PaymentOption> = {}): PaymentOption {
  return {
    scheme: "exact",
    network: "eip155:8453",
    network_name: "base",
    asset: BASE_USDC,
    asset_symbol: "USDC",
    amount_atomic: "10000",
    price_usdc: "0.01",
    pay_to: PAY_TO_EVM,
    max_timeout_seconds: 60,
    warnings: [],
    payable: true,
    unpayable_reasons: [],
    ...overrides,
  };
}
