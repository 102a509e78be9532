/**
 * Items shaped like answers of the CDP discovery feed
 * (GET https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources). Sellers are made up;
 * token contracts are the real USDC deployments.
 */

export const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const SOLANA_USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
export const PAY_TO = "0x7d9A5C1E2b3F4a6B8c0D1e2F3a4B5c6D7e8F9a0B";

/** A v1 item: URL string resource, method in outputSchema, ISO lastUpdated, empty metadata. */
export function v1Item(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resource: "https://api.weatherwise.example/v1/forecast",
    type: "http",
    x402Version: 1,
    accepts: [
      {
        scheme: "exact",
        network: "base",
        maxAmountRequired: "10000",
        resource: "https://api.weatherwise.example/v1/forecast",
        description: "7-day forecast for a city",
        mimeType: "application/json",
        payTo: PAY_TO,
        maxTimeoutSeconds: 300,
        asset: BASE_USDC,
        outputSchema: {
          input: { type: "http", method: "GET", queryParams: { city: "string" } },
          output: null,
        },
        extra: { name: "USD Coin", version: "2" },
      },
    ],
    lastUpdated: "2025-10-20T14:03:11.532Z",
    metadata: {},
    ...overrides,
  };
}

/** A v2 item: CAIP-2 networks, Unix-seconds lastUpdated, details and quality in metadata. */
export function v2Item(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resource: "https://API.Searchly.example:8443/v2/search?q=x#usage",
    type: "http",
    x402Version: 2,
    accepts: [
      {
        scheme: "exact",
        network: "eip155:8453",
        amount: "2500",
        asset: BASE_USDC,
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        extra: { name: "USD Coin", version: "2" },
      },
      {
        scheme: "exact",
        network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        amount: "2500",
        asset: SOLANA_USDC,
        payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        maxTimeoutSeconds: 60,
      },
    ],
    lastUpdated: 1761000000,
    metadata: {
      description: "Web search with citations",
      serviceName: "Searchly",
      tags: ["Search", "AI", "search"],
      input: { type: "http", method: "post" },
      quality: { l30DaysTotalCalls: 1520, l30DaysUniquePayers: 37, lastCalledAt: "2025-10-21T08:00:00Z" },
    },
    ...overrides,
  };
}

export function page(items: unknown[], pagination: unknown = { limit: 100, offset: 0, total: items.length }) {
  return { x402Version: 2, items, pagination };
}
