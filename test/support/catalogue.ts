import { refreshServiceSearch } from "../../src/catalogue/search-documents";
import type { Database } from "../../src/db/prisma-client";

/** A service as a test describes it; everything but the name has a neutral default. */
export interface ServiceSeed {
  name: string;
  domain?: string | null;
  description?: string | null;
  category?: string | null;
  tags?: string[];
  endpoints?: Array<{ method: string; url: string; description?: string | null }>;
  status?: "listed" | "delisted";
  uptime30d?: number | null;
  avgResponseMs30d?: number | null;
  infoUpdatedAt?: Date | null;
  volumeUsdc30d?: string | null;
  txCount30d?: number | null;
  payerCount30d?: number | null;
  firstSeenAt?: Date;
  lastSeenAt?: Date;
  history?: Array<{
    observedFrom: Date;
    observedTo: Date;
    uptime30d?: number | null;
    volumeUsdc30d?: string | null;
    txCount30d?: number | null;
  }>;
}

let counter = 0;

/**
 * Writes services the way the crawler leaves them (rows, endpoints, tags, history), then
 * rebuilds their search documents as the crawler's writer does after each change.
 */
export async function seedServices<const Seeds extends readonly ServiceSeed[]>(
  db: Database,
  seeds: Seeds,
): Promise<{ [K in keyof Seeds]: string }> {
  const source = await db.source.upsert({
    where: { kind_baseUrl: { kind: "html_directory", baseUrl: "http://directory.test/" } },
    create: { kind: "html_directory", baseUrl: "http://directory.test/" },
    update: {},
  });
  const ids: string[] = [];
  for (const seed of seeds) {
    counter += 1;
    const service = await db.service.create({
      data: {
        sourceId: source.id,
        detailUrl: `http://directory.test/services/${counter}`,
        name: seed.name,
        domain: seed.domain ?? null,
        description: seed.description ?? null,
        category: seed.category ?? null,
        status: seed.status ?? "listed",
        firstSeenAt: seed.firstSeenAt ?? new Date("2026-01-01T00:00:00Z"),
        lastSeenAt: seed.lastSeenAt ?? new Date("2026-02-01T00:00:00Z"),
        uptime30d: seed.uptime30d ?? null,
        avgResponseMs30d: seed.avgResponseMs30d ?? null,
        infoUpdatedAt: seed.infoUpdatedAt ?? null,
        volumeUsdc30d: seed.volumeUsdc30d ?? null,
        txCount30d: seed.txCount30d ?? null,
        payerCount30d: seed.payerCount30d ?? null,
        endpoints: {
          create: (seed.endpoints ?? []).map((endpoint, position) => ({
            position,
            method: endpoint.method,
            url: endpoint.url,
            description: endpoint.description ?? null,
          })),
        },
        tags: { create: (seed.tags ?? []).map((tag) => ({ tag })) },
        snapshots: { create: seed.history ?? [] },
      },
      select: { id: true },
    });
    ids.push(service.id);
  }
  await refreshServiceSearch(db, ids);
  // One id per seed, in order: a tuple of seeds gives a tuple of ids.
  return ids as { [K in keyof Seeds]: string };
}
