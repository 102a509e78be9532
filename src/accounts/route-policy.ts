import type { Scope } from "./scopes";

/**
 * Who may call a path, and under which group its usage is counted. Public routes answer
 * without a key; a key sent to them must still be valid and hold the route's scope (a key's
 * scopes bound what it is used for). Protected routes need a key with the scope.
 * The OpenAPI document reads the same table, so the documented scopes are the enforced ones.
 * The path is read as written: it reaches a route only in that one form (src/http/router.ts).
 */
export interface RoutePolicy {
  /** Usage is counted per key, day and group (`api_usage.route_group`). */
  group: string;
  access: "public" | "protected";
  /** The scope a key needs here; none: any valid key. */
  scope?: Scope;
  /** The scope methods other than GET and HEAD need instead (billing: read vs. write). */
  writeScope?: Scope;
}

const CATALOGUE: RoutePolicy = { group: "catalogue", access: "public", scope: "catalogue:read" };
const EXPORTS: RoutePolicy = { group: "exports", access: "public", scope: "catalogue:export" };
const OTHER: RoutePolicy = { group: "other", access: "public" };
/** The pages for people (src/pages) read the catalogue: counted and limited like it. */
const PAGES: RoutePolicy = { group: "pages", access: "public", scope: "catalogue:read" };
const PAGE_ROOTS = new Set(["services", "endpoints", "stats", "badge", "assets"]);

function isPage(path: string): boolean {
  if (path === "/") return true;
  const end = path.indexOf("/", 1);
  return PAGE_ROOTS.has(path.slice(1, end === -1 ? undefined : end));
}
/** Registrations are open to anyone (under a tight per-address limit); a key sent needs catalogue:register to submit. */
const REGISTRATIONS: RoutePolicy = {
  group: "registrations",
  access: "public",
  scope: "catalogue:read",
  writeScope: "catalogue:register",
};
const X402_PAYMENTS: RoutePolicy = { group: "x402", access: "protected", scope: "x402:read" };

/** By the first segment after /v1/ (the catalogue's routes sit directly below it). */
const POLICIES: Record<string, RoutePolicy> = {
  services: CATALOGUE,
  endpoints: CATALOGUE,
  categories: CATALOGUE,
  tags: CATALOGUE,
  crawls: CATALOGUE,
  "probe-sweeps": CATALOGUE,
  preflight: CATALOGUE,
  "services.csv": EXPORTS,
  "history.csv": EXPORTS,
  "api-keys": { group: "keys", access: "protected", scope: "keys:write" },
  usage: { group: "usage", access: "protected", scope: "billing:read" },
  "payment-orders": {
    group: "billing",
    access: "protected",
    scope: "billing:read",
    writeScope: "billing:write",
  },
  plans: { group: "billing", access: "public" },
  merchant: { group: "billing", access: "protected", scope: "billing:read", writeScope: "billing:write" },
  events: CATALOGUE,
  "webhook-endpoints": { group: "webhooks", access: "protected", scope: "webhooks:write" },
  registrations: REGISTRATIONS,
  // What an origin's verified owner does: the ownership credential (X-Owner-Credential) decides, in the route.
  "origin-owners": { group: "owners", access: "public" },
  // Re-indexing an origin on demand: keys that may register.
  origins: { group: "registrations", access: "protected", scope: "catalogue:register" },
  // The catalogue's own x402 sales: the operator's, not any organisation's.
  "x402-payments": X402_PAYMENTS,
  "x402-payments.csv": X402_PAYMENTS,
};

const READ_METHODS = new Set(["GET", "HEAD"]);

export function routePolicy(path: string, method = "GET"): RoutePolicy {
  // The MCP tools read the catalogue: a key sent there needs what the REST catalogue routes need.
  if (path === "/mcp") return CATALOGUE;
  if (!path.startsWith("/v1/")) return isPage(path) ? PAGES : OTHER;
  const end = path.indexOf("/", 4);
  const segment = path.slice(4, end === -1 ? undefined : end);
  const policy = Object.hasOwn(POLICIES, segment) ? (POLICIES[segment] as RoutePolicy) : OTHER;
  return policy.writeScope && !READ_METHODS.has(method) ? { ...policy, scope: policy.writeScope } : policy;
}
