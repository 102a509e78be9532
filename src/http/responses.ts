import type { Request, RequestHandler, Response } from "express";
import { signAnswerBody } from "../answer-signing/signed-answers";
import { BodyBuffers } from "./body-buffers";
import { HttpError } from "./errors";
import { PreparedResponse, ResponseCache, weakEtag } from "./response-cache";

/**
 * The catalogue changes when a crawl runs (hourly by default): a minute of client caching costs
 * little freshness. Every JSON answer carries a weak ETag; a matching If-None-Match gets 304.
 */
const CACHE_CONTROL = "public, max-age=60";

const NO_CACHE = new ResponseCache(0, 0);
const EMPTY = Buffer.alloc(0);

function cacheOf(res: Response): ResponseCache {
  const cache: unknown = res.locals.responseCache;
  return cache instanceof ResponseCache ? cache : NO_CACHE;
}

/** `sent`: called once the body has been written (or was not sent at all). */
function send(
  req: Request,
  res: Response,
  entry: PreparedResponse,
  state: "hit" | "miss",
  sent?: () => void,
): void {
  // setHeader rather than Express's res.set: the values are final, nothing to normalise.
  res.setHeader("Cache-Control", CACHE_CONTROL);
  res.setHeader("Content-Type", entry.contentType);
  res.setHeader("ETag", entry.etag);
  // Appended: a route that also negotiates on Accept (`/`) has said so already.
  res.vary("Accept-Encoding");
  res.setHeader("X-Cache", state);
  if (req.fresh) {
    res.status(304).end(sent);
    return;
  }
  // Compressed at most once per answer (PreparedResponse.gzip); no middleware compresses JSON.
  // No Accept-Encoding: identity, without building a negotiator (most agents never ask for gzip).
  const gzip = req.headers["accept-encoding"] !== undefined && req.acceptsEncodings("gzip") === "gzip";
  const body = gzip ? entry.gzip : entry.json;
  // Signed over the body without content coding, before the gzip header hides it.
  signAnswerBody(res, req.method === "HEAD" ? EMPTY : entry.json);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body, sent);
}

/** Answers a GET with JSON, through the response cache when the app has one. */
export function sendCacheable(res: Response, body: unknown): void {
  sendJson(res, JSON.stringify(body));
}

/**
 * Answers a GET with JSON already serialised, as text or UTF-8 bytes (the loaded catalogue keeps
 * its items serialised). `etagDeterminant`: what the body is a function of, when much cheaper to
 * hash than the body.
 */
export function sendJson(res: Response, json: string | Buffer, etagDeterminant?: string): void {
  send(res.req, res, cacheOf(res).store(res.req.originalUrl, json, etagDeterminant), "miss");
}

/**
 * Answers a GET with a body of another type (an HTML page, an SVG badge, a stylesheet) with the
 * JSON answers' ETag, 304, Cache-Control and gzip; never kept in the response cache, whose
 * entries are looked up by URL alone before any route runs.
 */
export function sendCacheableBody(res: Response, body: string, contentType: string): void {
  const bytes = Buffer.from(body);
  send(res.req, res, new PreparedResponse(bytes, weakEtag(bytes, bytes.length), 0, contentType), "miss");
}

const bodies = new BodyBuffers();

/**
 * Answers a GET with JSON made of UTF-8 parts (a page of the loaded catalogue's serialised items), copied
 * into a pooled buffer for the time of the write; the response cache, when it keeps the answer,
 * gets a buffer of its own. `etagDeterminant` as for sendJson.
 */
export function sendJsonParts(res: Response, parts: readonly Buffer[], etagDeterminant: string): void {
  let size = 0;
  for (const part of parts) size += part.length;
  const cache = cacheOf(res);
  if (cache.keeps(size)) {
    sendJson(res, Buffer.concat(parts, size), etagDeterminant);
    return;
  }
  const buffer = bodies.take(size);
  let offset = 0;
  for (const part of parts) {
    buffer.set(part, offset);
    offset += part.length;
  }
  const entry = new PreparedResponse(buffer.subarray(0, size), weakEtag(etagDeterminant, size));
  send(res.req, res, entry, "miss", () => bodies.giveBack(buffer));
}

/** Serves cached answers before any route runs; routes store theirs through sendCacheable. */
export function serveCachedResponses(cache: ResponseCache): RequestHandler {
  return (req, res, next) => {
    res.locals.responseCache = cache;
    const entry = req.method === "GET" || req.method === "HEAD" ? cache.get(req.originalUrl) : undefined;
    if (entry) send(req, res, entry, "hit");
    else next();
  };
}

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** The API only reads: any other method on a known path is 405 with Allow, not a misleading 404. */
export function methodNotAllowed(req: Request, res: Response): never {
  res.set("Allow", ALLOWED_METHODS);
  throw new HttpError(405, `${req.method} is not allowed on ${req.path}; allowed: ${ALLOWED_METHODS}`);
}
