import type { Database } from "../db/prisma-client";
import type { Prisma, Registration } from "../generated/prisma/client";
import type { RegistrationState } from "../generated/prisma/enums";

/** Registrations: one row per submitted target, found again by its key when resubmitted. */

export type { Registration };

/** What is registered: one resource probed with a method, or an origin whose manifest is read. */
export type RegistrationTarget =
  | { kind: "url"; url: string; method: string; origin: string }
  | { kind: "origin"; origin: string };

/** Who submitted: a key of an organisation, or an anonymous client address. */
export type Submitter =
  | { kind: "key"; apiKeyId: string; organisationId: string; environment: "live" | "test" }
  | { kind: "anonymous"; address: string };

/** One resource a check listed, with the catalogue entry (GET /v1/services/{id}) it is in. */
export interface ListedResource {
  method: string;
  url: string;
  serviceId: string;
}

/** What makes two submissions the same registration. */
export function registrationKey(target: RegistrationTarget): string {
  return target.kind === "url" ? `url ${target.method} ${target.url}` : `origin ${target.origin}`;
}

export function findRegistration(db: Database, id: string): Promise<Registration | null> {
  return db.registration.findUnique({ where: { id } });
}

export function findRegistrationByKey(db: Database, key: string): Promise<Registration | null> {
  return db.registration.findUnique({ where: { key } });
}

/** Registrations of one origin, oldest first. */
export function findRegistrationsOfOrigin(db: Database, origin: string): Promise<Registration[]> {
  return db.registration.findMany({ where: { origin }, orderBy: { createdAt: "asc" } });
}

/**
 * The registration of this target: the stored one when it was submitted before (its submitter
 * kept), else a new pending one. Racing first submissions make one row.
 */
export async function submitRegistration(
  db: Database,
  target: RegistrationTarget,
  submitter: Submitter,
): Promise<{ registration: Registration; created: boolean }> {
  const key = registrationKey(target);
  const existing = await findRegistrationByKey(db, key);
  if (existing !== null) return { registration: existing, created: false };
  const row = {
    key,
    kind: target.kind,
    origin: target.origin,
    url: target.kind === "url" ? target.url : null,
    method: target.kind === "url" ? target.method : null,
    ...(submitter.kind === "key"
      ? {
          apiKeyId: submitter.apiKeyId,
          organisationId: submitter.organisationId,
          environment: submitter.environment,
        }
      : { submitterAddress: submitter.address }),
  };
  const inserted = await db.registration.createManyAndReturn({ data: [row], skipDuplicates: true });
  const registration = inserted[0] ?? (await findRegistrationByKey(db, key));
  if (registration === null) throw new Error(`registration ${key} vanished while being submitted`);
  return { registration, created: inserted.length > 0 };
}

/** The outcome of a check of one registration. */
export interface RegistrationOutcome {
  state: Exclude<RegistrationState, "pending">;
  reason: string | null;
  verdict: Prisma.InputJsonValue;
  listed: ListedResource[];
  sourceId: string;
  checkedAt: Date;
}

export function recordRegistrationOutcome(
  db: Database,
  id: string,
  outcome: RegistrationOutcome,
): Promise<Registration> {
  const listed = outcome.listed.map(({ method, url, serviceId }) => ({ method, url, service_id: serviceId }));
  return db.registration.update({ where: { id }, data: { ...outcome, listed } });
}

/** Endpoints of the listed services of one source (a registered origin's), ordered by URL and method. */
export async function listedEndpointsOfSource(
  db: Database,
  sourceId: string,
): Promise<(ListedResource & { id: string })[]> {
  const rows = await db.endpoint.findMany({
    where: { service: { sourceId, status: "listed" } },
    select: { id: true, method: true, url: true, service: { select: { id: true, entryId: true } } },
    orderBy: [{ url: "asc" }, { method: "asc" }],
  });
  return rows.map(({ id, method, url, service }) => ({
    id,
    method,
    url,
    serviceId: service.entryId ?? service.id,
  }));
}

/** What a registration listed, as stored (service_id: the entry shown by GET /v1/services/{id}). */
export function listedOf(registration: Registration): ListedResource[] {
  const rows = Array.isArray(registration.listed) ? registration.listed : [];
  return rows.flatMap((row) => {
    if (typeof row !== "object" || row === null || Array.isArray(row)) return [];
    const { method, url, service_id: serviceId } = row;
    return typeof method === "string" && typeof url === "string" && typeof serviceId === "string"
      ? [{ method, url, serviceId }]
      : [];
  });
}

/**
 * Registered origins due for their scheduled re-index: their source has a listed registration
 * and no run started within `everyMs`. Oldest first by their last run, so none waits behind others.
 */
export async function dueRegisteredOrigins(db: Database, everyMs: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ origin: string }[]>`
    SELECT src.base_url AS origin
    FROM sources src
    LEFT JOIN LATERAL (
      SELECT max(cr.started_at) AS last FROM crawl_runs cr WHERE cr.source_id = src.id
    ) runs ON true
    WHERE src.kind = 'registered'
      AND EXISTS (SELECT 1 FROM registrations r WHERE r.source_id = src.id AND r.state = 'listed')
      AND (runs.last IS NULL OR runs.last <= now() - make_interval(secs => ${everyMs / 1000}))
    ORDER BY runs.last NULLS FIRST, src.base_url`;
  return rows.map((row) => row.origin);
}
