import type { Database } from "../db/prisma-client";

/** "METHOD url": an endpoint's identity within its service (the endpoints unique key). */
export const endpointKey = (method: string, url: string): string => `${method} ${url}`;

/** The stored endpoints of these services, as endpoint keys per service id. */
export async function storedEndpointKeys(
  db: Database,
  serviceIds: string[],
): Promise<Map<string, Set<string>>> {
  const keys = new Map<string, Set<string>>();
  if (serviceIds.length === 0) return keys;
  const rows = await db.endpoint.findMany({
    where: { serviceId: { in: serviceIds } },
    select: { serviceId: true, method: true, url: true },
  });
  for (const row of rows) {
    const set = keys.get(row.serviceId) ?? new Set<string>();
    set.add(endpointKey(row.method, row.url));
    keys.set(row.serviceId, set);
  }
  return keys;
}
