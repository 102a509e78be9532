import type { Database } from "../../src/db/prisma-client";

/** A payment option as a test describes it; the rest are neutral defaults. */
export interface PaymentOptionSeed {
  origin?: "listing" | "probe";
  /** The claiming source (listings only). */
  sourceId?: string | null;
  network?: string | null;
  networkName?: string | null;
  asset?: string | null;
  assetSymbol?: string | null;
  amountAtomic?: string | null;
  priceUsdc?: string | null;
  payTo?: string | null;
  warnings?: string[];
  observedAt?: Date;
}

/** The first endpoint of a service (by position): tests hang payment options and probes on it. */
export async function firstEndpointId(db: Database, serviceId: string): Promise<string> {
  const endpoint = await db.endpoint.findFirstOrThrow({ where: { serviceId }, orderBy: { position: "asc" } });
  return endpoint.id;
}

/** Writes options in the given order (their position), as the crawler and prober do. */
export async function seedPaymentOptions(
  db: Database,
  endpointId: string,
  options: PaymentOptionSeed[],
): Promise<void> {
  await db.paymentOption.createMany({
    data: options.map((option, position) => ({
      endpointId,
      position,
      origin: option.origin ?? "listing",
      sourceId: option.sourceId ?? null,
      scheme: "exact",
      network: option.network ?? null,
      networkName: option.networkName ?? null,
      asset: option.asset ?? null,
      assetSymbol: option.assetSymbol ?? null,
      amountAtomic: option.amountAtomic ?? null,
      priceUsdc: option.priceUsdc ?? null,
      payTo: option.payTo ?? null,
      maxTimeoutSeconds: 60,
      warnings: option.warnings ?? [],
      observedAt: option.observedAt ?? new Date("2026-02-01T00:00:00Z"),
    })),
  });
}

/**
 * Adds a Bazaar row of the entry `primaryId` (same domain, another source), as the merge step would
 * leave it, with these endpoints; the primary is marked as its entry's primary. Returns the row's id.
 */
export async function seedBazaarMember(
  db: Database,
  primaryId: string,
  endpoints: Array<{ method: string; url: string }>,
): Promise<string> {
  const source = await db.source.upsert({
    where: { kind_baseUrl: { kind: "bazaar", baseUrl: "https://bazaar.test/" } },
    create: { kind: "bazaar", baseUrl: "https://bazaar.test/" },
    update: {},
  });
  const primary = await db.service.update({ where: { id: primaryId }, data: { canonicalId: primaryId } });
  const member = await db.service.create({
    data: {
      sourceId: source.id,
      detailUrl: `https://bazaar.test/items/${primary.domain ?? primaryId}`,
      name: primary.name,
      domain: primary.domain,
      canonicalId: primaryId,
      firstSeenAt: new Date("2026-01-05T00:00:00Z"),
      lastSeenAt: new Date("2026-02-05T00:00:00Z"),
      endpoints: { create: endpoints.map((endpoint, position) => ({ position, ...endpoint })) },
    },
    select: { id: true },
  });
  return member.id;
}
