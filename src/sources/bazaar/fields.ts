import type { z } from "zod";
import { withoutControls } from "../../normalise/text";
import { CountSchema, TagsSchema, TextSchema } from "./schema";

/** Field readers for feed items: a value of the wrong type is ignored with a warning. */

export type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Follows a path of object keys, yielding undefined as soon as a step is not an object. */
export function dig(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

function read<T>(schema: z.ZodType<T>, raw: unknown, name: string, warnings: string[]): T | null {
  if (raw === undefined || raw === null) return null;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  warnings.push(`${name} ignored: ${JSON.stringify(raw).slice(0, 80)}`);
  return null;
}

/** The first present candidate, read as text. Candidates are [name, value] in priority order. */
export function firstText(candidates: [string, unknown][], warnings: string[]): string | null {
  for (const [name, raw] of candidates) {
    const value = read(TextSchema, raw, name, warnings);
    if (value !== null) return value;
  }
  return null;
}

export function firstCount(candidates: [string, unknown][], warnings: string[]): number | null {
  for (const [name, raw] of candidates) {
    const value = read(CountSchema, raw, name, warnings);
    if (value !== null) return value;
  }
  return null;
}

/** Union of all tag lists, without control characters, lower-cased and deduplicated; non-string tags are dropped. */
export function mergeTags(lists: unknown[], warnings: string[]): string[] {
  const tags = new Set<string>();
  for (const list of lists) {
    for (const tag of read(TagsSchema, list, "tags", warnings) ?? []) {
      const text = typeof tag === "string" ? withoutControls(tag).trim() : "";
      if (text !== "") tags.add(text.toLowerCase());
    }
  }
  return [...tags];
}
