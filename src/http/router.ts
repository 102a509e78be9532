import { type Express, type RequestHandler, Router } from "express";

/**
 * One canonical form of every path: routes match case-sensitively and strictly (no trailing
 * slash), so `/V1/api-keys` or `/v1/api-keys/` reach no route. The request guard decides on the
 * path as written; a path it reads as public can therefore never reach a protected route.
 * Percent-encoded letters (`/v1/%61pi-keys`) match no literal segment either: Express matches
 * the path undecoded and decodes only parameters.
 */
const ROUTING = { caseSensitive: true, strict: true } as const;

/** Every router of the API is made here, with the app's routing options. */
export function apiRouter(): Router {
  return Router(ROUTING);
}

export function useCanonicalRouting(app: Express): void {
  app.set("case sensitive routing", ROUTING.caseSensitive);
  app.set("strict routing", ROUTING.strict);
}

/**
 * `handler` for every request except those under `prefix`, which go straight on: Express does
 * not walk the handler's routes for them (a router of pages, for the API's requests).
 */
export function exceptUnder(prefix: string, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.path.startsWith(prefix)) next();
    else handler(req, res, next);
  };
}
