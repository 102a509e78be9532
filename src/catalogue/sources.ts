import type { Database } from "../db/prisma-client";
import type { SourceKind } from "../generated/prisma/enums";

/** The source row for a crawled directory or feed, created on first use. */
export function ensureSource(db: Database, kind: SourceKind, baseUrl: string) {
  return db.source.upsert({
    where: { kind_baseUrl: { kind, baseUrl } },
    create: { kind, baseUrl },
    update: {},
  });
}
