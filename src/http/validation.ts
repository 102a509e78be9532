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
