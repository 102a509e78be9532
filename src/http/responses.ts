import type { Request, Response } from "express";
import { HttpError } from "./errors";

/**
 * The catalogue changes when a crawl runs (hourly by default): a minute of client caching costs
 * little freshness. Express adds a weak ETag to every JSON answer and turns a matching
 * If-None-Match into 304 Not Modified.
 */
const CACHE_CONTROL = "public, max-age=60";

export function sendCacheable(res: Response, body: unknown): void {
  res.set("Cache-Control", CACHE_CONTROL).json(body);
}

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** The API only reads: any other method on a known path is 405 with Allow, not a misleading 404. */
export function methodNotAllowed(req: Request, res: Response): never {
  res.set("Allow", ALLOWED_METHODS);
  throw new HttpError(405, `${req.method} is not allowed on ${req.path}; allowed: ${ALLOWED_METHODS}`);
}
