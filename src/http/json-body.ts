import express, { type RequestHandler } from "express";
import { HttpError } from "./errors";

const NUL = "\u0000";

function member(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * Where a parsed JSON value holds a NUL character (Postgres stores no NUL in text), as the
 * refusal's message: the path of the first string or object key holding one, such as
 * `metadata.note` or `accepted_assets[1].chain` (`body` for the body itself); undefined when none.
 */
export function nulRefusal(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") {
    return value.includes(NUL) ? `${path || "body"}: must not contain NUL characters` : undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulRefusal(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return `${path || "body"}: keys must not contain NUL characters`;
    const found = nulRefusal(item, member(path, key));
    if (found) return found;
  }
  return undefined;
}

/**
 * The one JSON body parser of the API: express.json within `limit`, then one rule for every
 * body: no string or key anywhere in it may hold a NUL character (400 naming where), as no
 * query parameter may.
 */
export function jsonBody(limit = "16kb"): RequestHandler {
  const parse = express.json({ limit });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      const refused = nulRefusal(req.body);
      next(refused ? new HttpError(400, refused) : undefined);
    });
  };
}
