import { randomBytes } from "node:crypto";
import { privateKeyToAccount } from "viem/accounts";
import type { ActivityChain } from "../../src/activity/activity-chains";
import type { Database } from "../../src/db/prisma-client";

export const BASE = "eip155:8453";

/** A fresh local key and its lower-case address (a payer or a pay_to that signs EIP-3009 transfers). */
export function newAccount(): { key: `0x${string}`; address: string } {
  const key = `0x${randomBytes(32).toString("hex")}` as `0x${string}`;
  return { key, address: privateKeyToAccount(key).address.toLowerCase() };
}

/** The endpoint's listing publishes `payTo` (checksummed, as listings write it) on `network`. */
export async function publishPayTo(
  db: Database,
  endpointId: string,
  payTo: string,
  network = BASE,
): Promise<void> {
  const position = await db.paymentOption.count({ where: { endpointId } });
  await db.paymentOption.create({
    data: {
      endpointId,
      origin: "listing",
      position,
      scheme: "exact",
      network,
      payTo: mixedCase(payTo),
      priceUsdc: "0.010000",
      warnings: [],
      observedAt: new Date(),
    },
  });
}

/** Listings write EVM addresses in mixed case; the reader compares them lower-case. */
function mixedCase(address: string): string {
  return address.replace(/[a-f]/g, (letter, index: number) =>
    index % 2 === 0 ? letter.toUpperCase() : letter,
  );
}

/** An ACTIVITY_CHAINS entry for a local chain: small limits, fast retries, read from genesis. */
export function activityChain(
  rpcUrl: string,
  usdc: string,
  overrides: Partial<ActivityChain> = {},
): ActivityChain {
  return {
    chain: BASE,
    rpcUrl,
    usdcContract: usdc.toLowerCase() as `0x${string}`,
    confirmations: 2,
    backfillDays: 30,
    startBlock: 0n,
    limits: {
      maxBlockRange: 64,
      addressesPerRequest: 3,
      requestsPerSecond: 1000,
      maxAttempts: 3,
      backoffMs: 5,
      timeoutMs: 5_000,
    },
    ...overrides,
  };
}

export async function endpointIdsOf(db: Database, serviceId: string): Promise<string[]> {
  const rows = await db.endpoint.findMany({
    where: { serviceId },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
