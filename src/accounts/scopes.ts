/** What a key may do. The merchant API leaves scopes open; these are ours (route-policy.ts). */
export const SCOPES = [
  "catalogue:read",
  "catalogue:export",
  "keys:write",
  "webhooks:write",
  "billing:read",
  "billing:write",
] as const;

export type Scope = (typeof SCOPES)[number];

/** Every owned object lives in one environment; a key sees its own environment only. */
export const ENVIRONMENTS = ["live", "test"] as const;

export type Environment = (typeof ENVIRONMENTS)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
