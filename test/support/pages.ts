import type { Database } from "../../src/db/prisma-client";
import { seedServices } from "./catalogue";
import { firstEndpointId, seedPaymentOptions } from "./payments";

/** Crawled text as an attacker would write it: markup, script URLs, bidi overrides, huge names. */
export const HOSTILE = {
  name: `<script>window.hacked=1</script><img src=x onerror="window.hacked=2">${"N".repeat(5_000)}`,
  description: 'Evil \u202Egnp.exe\u202C <b>bold</b> " onmouseover="x',
  category: "<i>Cat</i>",
  url: "javascript:window.hacked=3",
  tag: "<svg onload=alert(1)>",
} as const;

/** A small catalogue for the pages: two ordinary services with prices and history, one hostile. */
export async function seedPagesCatalogue(db: Database) {
  const [quotesId, weatherId, hostileId] = await seedServices(db, [
    {
      name: "Stock Quotes API",
      domain: "quotes.test",
      description: "Real-time stock quotes",
      category: "Finance",
      tags: ["stocks"],
      endpoints: [
        { method: "GET", url: "https://quotes.test/v1/quote", description: "Latest quote" },
        { method: "POST", url: "https://quotes.test/v1/batch", description: "Many quotes" },
      ],
      uptime30d: 99.5,
      avgResponseMs30d: 180,
      volumeUsdc30d: "1250.500000",
      txCount30d: 4200,
      payerCount30d: 37,
      firstSeenAt: new Date("2026-01-01T00:00:00Z"),
      history: [
        {
          observedFrom: new Date("2026-01-01T00:00:00Z"),
          observedTo: new Date("2026-01-10T00:00:00Z"),
          uptime30d: 97,
          volumeUsdc30d: "100",
        },
        {
          observedFrom: new Date("2026-01-10T00:00:00Z"),
          observedTo: new Date("2026-01-20T00:00:00Z"),
          uptime30d: 98,
          volumeUsdc30d: "600.5",
        },
        {
          observedFrom: new Date("2026-01-20T00:00:00Z"),
          observedTo: new Date("2026-01-31T00:00:00Z"),
          uptime30d: 99,
          volumeUsdc30d: "900.25",
        },
      ],
    },
    {
      name: "Weather Now",
      domain: "weather.test",
      description: "Forecasts by city",
      category: "Weather",
      endpoints: [{ method: "GET", url: "https://weather.test/forecast", description: "A city's forecast" }],
      uptime30d: 95,
      volumeUsdc30d: "10.000000",
      firstSeenAt: new Date("2026-02-01T00:00:00Z"),
    },
    {
      name: HOSTILE.name,
      domain: "evil.test",
      description: HOSTILE.description,
      category: HOSTILE.category,
      tags: [HOSTILE.tag],
      endpoints: [{ method: "GET", url: HOSTILE.url, description: "<script>window.hacked=4</script>" }],
    },
  ] as const);
  const quoteEndpoint = await firstEndpointId(db, quotesId);
  // Probes of the last hours: the detail's 24 h, 7 d and 30 d windows all hold them.
  await db.endpointProbe.createMany({
    data: [120, 180, 240, 900].map((latencyMs, k) => ({
      endpointId: quoteEndpoint,
      probedAt: new Date(Date.now() - (k + 1) * 3_600_000),
      outcome: k === 3 ? "http_error" : "challenge",
      statusCode: k === 3 ? 503 : 402,
      latencyMs,
      challengeValid: k !== 3,
    })),
  });
  // Probes of earlier days, at 00:30 UTC: the daily series has points before today.
  const today = new Date();
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  await db.endpointProbe.createMany({
    data: [2, 5, 9].map((days, k) => ({
      endpointId: quoteEndpoint,
      probedAt: new Date(midnight - days * DAY_MS + 30 * 60_000),
      outcome: "challenge",
      statusCode: 402,
      latencyMs: 150 + 50 * k,
      challengeValid: true,
      options: [{ network: "eip155:8453", price_usdc: k === 2 ? "0.02" : "0.01", pay_to: "0x1111" }],
    })),
  });
  await seedObservedVolume(db, quotesId, midnight);
  await seedPaymentOptions(db, quoteEndpoint, [
    {
      network: "eip155:8453",
      networkName: "base",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      assetSymbol: "USDC",
      amountAtomic: "10000",
      priceUsdc: "0.01",
      payTo: "0x1111111111111111111111111111111111111111",
    },
    {
      network: "eip155:8453",
      networkName: "base",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      assetSymbol: "USDC",
      amountAtomic: "50000",
      priceUsdc: "0.05",
      payTo: "0x1111111111111111111111111111111111111111",
    },
  ]);
  await seedPaymentOptions(db, await firstEndpointId(db, weatherId), [
    {
      network: "eip155:8453",
      networkName: "base",
      assetSymbol: "USDC",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amountAtomic: "1000",
      priceUsdc: "0.001",
      payTo: "0x2222222222222222222222222222222222222222",
    },
  ]);
  return { quotesId, weatherId, hostileId };
}

const DAY_MS = 86_400_000;

/** The chain's payments to a service over 30 days: its figures and two days of its daily series. */
async function seedObservedVolume(db: Database, serviceId: string, midnight: number) {
  const figures = (volume: string, tx: number) => ({ volume_usdc: volume, tx_count: tx, unique_payers: tx });
  const windows = { "24h": figures("0", 0), "7d": figures("40.5", 3), "30d": figures("40.5", 3) };
  await db.serviceActivity.create({
    data: {
      serviceId,
      observedVolumeUsdc30d: "40.5",
      adjustedVolumeUsdc30d: "40.5",
      observedTxCount30d: 3,
      uniquePayers30d: 3,
      adjustedUniquePayers30d: 3,
      flaggedTransfers30d: 0,
      observed: {
        pay_to: [{ chain: "eip155:8453", address: "0x1111111111111111111111111111111111111111" }],
        shared_with: [],
        raw: windows,
        adjusted: windows,
        last_payment_at: new Date(midnight - DAY_MS).toISOString(),
        flags: [],
        claims: [],
        claim_ratio: null,
        warnings: [],
        computed_at: new Date(midnight).toISOString(),
      },
      computedAt: new Date(midnight),
    },
  });
  await db.serviceActivityDay.createMany({
    data: [
      [4, "40"],
      [1, "0.5"],
    ].map(([days, volume]) => ({
      serviceId,
      day: new Date(midnight - Number(days) * DAY_MS),
      volumeUsdc: String(volume),
      txCount: 1,
      uniquePayers: 1,
      adjustedVolumeUsdc: String(volume),
      adjustedTxCount: 1,
      adjustedUniquePayers: 1,
    })),
  });
}
