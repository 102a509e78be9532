import type { Database } from "../db/prisma-client";
import { generateKeyToken } from "./api-key-tokens";
import { untilReadersSawLatestChange } from "./key-cache";
import type { Environment, Scope } from "./scopes";

/** A key as listings show it: never the key, only what lets a person recognise it. */
export interface ApiKeySummary {
  id: string;
  /** What a person calls the key; null when it was created without one. */
  name: string | null;
  environment: Environment;
  prefix: string;
  lastFour: string;
  scopes: Scope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A key in the API's JSON form (GET /v1/api-keys, and `npm run keys -- … --json`). */
export function apiKeyJson(key: ApiKeySummary) {
  return {
    id: key.id,
    name: key.name,
    environment: key.environment,
    prefix: key.prefix,
    last_four: key.lastFour,
    scopes: key.scopes,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** The one moment the key itself exists outside its holder's hands. */
export interface CreatedApiKey extends ApiKeySummary {
  key: string;
}

/** Where keys live: one organisation and one of its environments. */
export interface KeyOwner {
  organisationId: string;
  environment: Environment;
}

const SUMMARY = {
  id: true,
  name: true,
  environment: true,
  prefix: true,
  lastFour: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export async function createApiKey(
  db: Database,
  owner: KeyOwner,
  scopes: readonly Scope[],
  name: string | null = null,
): Promise<CreatedApiKey> {
  const { token, hash, prefix, lastFour } = generateKeyToken(owner.environment);
  const row = await db.apiKey.create({
    data: {
      organisationId: owner.organisationId,
      environment: owner.environment,
      name,
      keyHash: new Uint8Array(hash),
      prefix,
      lastFour,
      scopes: [...new Set(scopes)],
    },
    select: SUMMARY,
  });
  return { ...(row as ApiKeySummary), key: token };
}

/** Keys of one organisation's environment, newest first, revoked ones included. */
export async function getApiKeys(db: Database, owner: KeyOwner): Promise<ApiKeySummary[]> {
  const rows = await db.apiKey.findMany({
    where: { organisationId: owner.organisationId, environment: owner.environment },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: SUMMARY,
  });
  return rows as ApiKeySummary[];
}

/**
 * Revokes a key of this owner (a key of another organisation or environment is "not found").
 * Revoking twice keeps the first time. Undefined when the owner has no such key. Returns once
 * every running API process has dropped the key from its memory (see key-cache.ts).
 */
export async function revokeApiKey(
  db: Database,
  owner: KeyOwner,
  id: string,
): Promise<ApiKeySummary | undefined> {
  const where = { id, organisationId: owner.organisationId, environment: owner.environment };
  const { count } = await db.apiKey.updateMany({
    where: { ...where, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  // API processes keep verified keys in memory: answer only once none of them accepts this one.
  if (count > 0) await untilReadersSawLatestChange(db);
  const row = await db.apiKey.findFirst({ where, select: SUMMARY });
  return (row as ApiKeySummary | null) ?? undefined;
}

/** For operators, who revoke by id alone. */
export async function getApiKeyOwner(db: Database, id: string): Promise<KeyOwner | undefined> {
  const row = await db.apiKey.findUnique({
    where: { id },
    select: { organisationId: true, environment: true },
  });
  return row ?? undefined;
}
