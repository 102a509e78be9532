import type { Scope } from "./scopes";

/**
 * Who may call a path, and under which group its usage is counted. Public routes answer
 * without a key; a key sent to them must still be valid and hold the route's scope (a key's
 * scopes bound what it is used for). Protected routes need a key with the scope.
 * The OpenAPI document reads the same table, so the documented scopes are the enforced ones.
 */
export interface RoutePolicy {
  /** Usage is counted per key, day and group (`api_usage.route_group`). */
  group: string;
  access: "public" | "protected";
  /** The scope a key needs here; none: any valid key. */
  scope?: Scope;
}

const CATALOGUE: RoutePolicy = { group: "catalogue", access: "public", scope: "catalogue:read" };
const EXPORTS: RoutePolicy = { group: "exports", access: "public", scope: "catalogue:export" };
const OTHER: RoutePolicy = { group: "other", access: "public" };

/** By the first segment after /v1/ (the catalogue's routes sit directly below it). */
const POLICIES: Record<string, RoutePolicy> = {
  services: CATALOGUE,
  endpoints: CATALOGUE,
  categories: CATALOGUE,
  tags: CATALOGUE,
  crawls: CATALOGUE,
  "probe-sweeps": CATALOGUE,
  "services.csv": EXPORTS,
  "history.csv": EXPORTS,
  "api-keys": { group: "keys", access: "protected", scope: "keys:write" },
  usage: { group: "usage", access: "protected", scope: "billing:read" },
  events: CATALOGUE,
  "webhook-endpoints": { group: "webhooks", access: "protected", scope: "webhooks:write" },
};

export function routePolicy(path: string): RoutePolicy {
  if (!path.startsWith("/v1/")) return OTHER;
  const end = path.indexOf("/", 4);
  const segment = path.slice(4, end === -1 ? undefined : end);
  return Object.hasOwn(POLICIES, segment) ? (POLICIES[segment] as RoutePolicy) : OTHER;
}
