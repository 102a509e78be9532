import { z } from "zod";

/** What a key may do. The merchant API leaves scopes open; these are ours (route-policy.ts). */
export const SCOPES = [
  "catalogue:read",
  "catalogue:export",
  "catalogue:register",
  "keys:write",
  "webhooks:write",
  "billing:read",
  "billing:write",
  "x402:read",
] as const;

export type Scope = (typeof SCOPES)[number];

/** Every owned object lives in one environment; a key sees its own environment only. */
export const ENVIRONMENTS = ["live", "test"] as const;

export type Environment = (typeof ENVIRONMENTS)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What a person calls a key ("ci", "billing dashboard"), to recognise it in lists. */
export const API_KEY_NAME_MAX = 100;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

export const apiKeyName = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(API_KEY_NAME_MAX, `must be at most ${API_KEY_NAME_MAX} characters`)
  .refine((name) => !CONTROL_CHARACTERS.test(name), "must not contain control characters");
