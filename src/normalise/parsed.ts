import type { Parsed } from "./types";

/** Constructors for `Parsed<T>`, so every parser builds results the same way. */
export function ok<T>(value: T): Parsed<T> {
  return { kind: "value", value };
}

export function missing<T>(): Parsed<T> {
  return { kind: "missing" };
}

export function invalid<T>(raw: string, reason: string): Parsed<T> {
  return { kind: "invalid", raw, reason };
}
