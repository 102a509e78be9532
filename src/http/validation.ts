import type { Request } from "express";
import type { z } from "zod";
import { HttpError } from "./errors";

const MAX_SHOWN_VALUE = 60;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE)}…` : text;
}

function describe(
  issue: z.core.$ZodIssue,
  input: Record<string, unknown>,
  allowed: string[],
  kind: string,
): string {
  if (issue.code === "unrecognized_keys") {
    const names = issue.keys.map((key) => `"${key}"`).join(", ");
    const plural = issue.keys.length > 1 ? "s" : "";
    return `unknown ${kind} parameter${plural} ${names}; allowed: ${allowed.join(", ") || "none"}`;
  }
  const name = String(issue.path[0] ?? kind);
  const value = input[name];
  return `${name}: ${issue.message}${value === undefined ? "" : ` (got ${shown(value)})`}`;
}

/**
 * Validates request input against the schema that also documents it (openapi/document.ts). Failures are
 * a 400 whose message names each offending parameter and what it allows; unknown parameters are
 * refused, so a typo never silently widens a search.
 */
export function parseInput<S extends z.ZodObject>(
  schema: S,
  input: unknown,
  kind: "query" | "path" | "body",
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const record = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const allowed = Object.keys(schema.shape);
  const messages = result.error.issues.map((issue) => describe(issue, record, allowed, kind));
  throw new HttpError(400, [...new Set(messages)].join("; "));
}

/** How many distinct query strings each schema's parses are remembered for. */
const REMEMBERED_QUERIES = 1_000;
const rememberedParses = new WeakMap<z.ZodObject, Map<string, unknown>>();

/**
 * parseInput of a request's query, remembered by its query string: agents repeat their searches,
 * and validating a list's forty-odd parameters costs tens of µs. The same string always parses
 * the same way (the schemas read nothing but their input); a parse is shared by every request that
 * asks it, so it is frozen. Refusals are not remembered.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, req: Request): z.output<S> {
  const at = req.url.indexOf("?");
  const key = at < 0 ? "" : req.url.slice(at + 1);
  let parses = rememberedParses.get(schema);
  if (parses === undefined) {
    parses = new Map();
    rememberedParses.set(schema, parses);
  }
  const known = parses.get(key);
  if (known !== undefined) return known as z.output<S>;
  const parsed = deepFreeze(parseInput(schema, req.query, "query"));
  if (parses.size >= REMEMBERED_QUERIES) parses.clear();
  parses.set(key, parsed);
  return parsed;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
