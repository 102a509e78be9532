import type { Database } from "../db/prisma-client";

export interface Organisation {
  id: string;
  name: string;
  planId: string;
}

export function getOrganisationByName(db: Database, name: string): Promise<Organisation | null> {
  return db.organisation.findUnique({ where: { name }, select: { id: true, name: true, planId: true } });
}

/** The organisation with this name, created on the default plan the first time it is named. */
export function ensureOrganisation(db: Database, name: string): Promise<Organisation> {
  return db.organisation.upsert({
    where: { name },
    create: { name },
    update: {},
    select: { id: true, name: true, planId: true },
  });
}
