import type { RequestHandler, Response } from "express";
import type { Accounts } from "../accounts/accounts";
import { bearerCredential, hashKeyToken } from "../accounts/api-key-tokens";
import type { KeyOwner } from "../accounts/api-keys";
import type { VerifiedKey } from "../accounts/key-verifier";
import { routePolicy } from "../accounts/route-policy";
import type { Scope } from "../accounts/scopes";
import type { RateDecision } from "../accounts/shared-rate-limiter";
import type { X402Sales } from "../x402-sales/x402-sales";
import { HttpError } from "./errors";
import { admitExport, exportAllowanceSpent } from "./export-gate";

const REALM = 'Bearer realm="x402-catalogue"';

function unauthorised(res: Response, message: string, invalidToken: boolean): HttpError {
  res.set("WWW-Authenticate", invalidToken ? `${REALM}, error="invalid_token"` : REALM);
  return new HttpError(401, message);
}

function lacksScope(res: Response, scope: Scope): HttpError {
  res.set("WWW-Authenticate", `${REALM}, error="insufficient_scope", scope="${scope}"`);
  return new HttpError(403, `This API key lacks the scope ${scope}`);
}

/** The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers-07): limit, left, seconds to reset. */
function setRateLimitHeaders(res: Response, decision: RateDecision): void {
  const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
  // setHeader rather than Express's res.set: plain values, nothing to normalise, on every request.
  res.setHeader("RateLimit-Limit", String(decision.limit));
  res.setHeader("RateLimit-Remaining", String(decision.remaining));
  res.setHeader("RateLimit-Reset", String(resetSeconds));
  res.setHeader("RateLimit-Policy", `${decision.limit};w=60`);
  if (!decision.allowed) res.setHeader("Retry-After", String(resetSeconds));
}

const KEYED = new WeakMap<Response, VerifiedKey>();

/**
 * Every request passes here first: the key (when one is sent, whatever the route) is looked up
 * and must be valid and unrevoked; the request is counted against its key's plan, or against
 * its client address without a valid key (so guessing keys is limited too); a protected route
 * needs a key, and a key needs the route's scope. Keyed requests are counted for usage.
 * Nothing of the key is ever logged or echoed. When the API is sold over x402 (`sales`), a caller
 * without a key on a sold route pays instead of getting 429 past its allowance (a CSV export: once
 * the address's daily CSV rows are spent), and always on the route groups the operator marks
 * paid; a request offering a payment is verified and charged.
 */
export function requestGuard(accounts: Accounts, sales?: X402Sales): RequestHandler {
  const { keys, limiter, usage, settings } = accounts;
  return async (req, res, next) => {
    const policy = routePolicy(req.path, req.method);
    const credential = bearerCredential(req.get("authorization"));
    const key = credential.kind === "key" ? await keys.verify(hashKeyToken(credential.token)) : undefined;
    const usable = key !== undefined && !key.revoked;
    const decision = usable
      ? await limiter.consume(`key:${key.id}`, key.requestsPerMinute)
      : await limiter.consume(`ip:${req.ip ?? "unknown"}`, settings.anonymousRequestsPerMinute);
    setRateLimitHeaders(res, decision);
    const sold = credential.kind === "none" ? sales?.soldRoute(req) : undefined;
    if (!decision.allowed && !sold) {
      throw new HttpError(
        429,
        `Too many requests: the limit is ${decision.limit} a minute; retry after the Retry-After seconds`,
      );
    }
    if (credential.kind === "malformed") {
      throw unauthorised(
        res,
        "The Authorization header must be 'Bearer <API key>' with a key issued by this service",
        true,
      );
    }
    if (credential.kind === "key" && !key) throw unauthorised(res, "The API key is not valid", true);
    if (key?.revoked) throw unauthorised(res, "The API key has been revoked", true);
    if (!key) {
      if (policy.access === "protected") {
        throw unauthorised(res, "This route needs an API key: send Authorization: Bearer <API key>", false);
      }
      const caller = `ip:${req.ip ?? "unknown"}`;
      const exporting = policy.group === EXPORTS_GROUP;
      if (
        sold &&
        (!decision.allowed ||
          sales?.alwaysPaid(sold) ||
          sales?.carriesPayment(req) ||
          (exporting && (await exportAllowanceSpent(accounts, caller, settings.anonymousCsvRowsPerDay))))
      ) {
        sales?.requirePayment(res);
      } else if (exporting) {
        await admitExport(accounts, res, caller, settings.anonymousCsvRowsPerDay);
      }
      next();
      return;
    }
    if (policy.scope && !key.scopes.includes(policy.scope)) throw lacksScope(res, policy.scope);
    KEYED.set(res, key);
    usage.recordRequest(key.id, policy.group);
    if (policy.group === EXPORTS_GROUP) {
      const subject = `org:${key.organisationId}:${key.environment}`;
      await admitExport(accounts, res, subject, key.csvRowsPerDay, (rows) =>
        usage.recordCsvRows(key.id, policy.group, rows),
      );
    }
    next();
  };
}

/** The route group of the CSV exports (route-policy.ts), whose rows a plan allows per day. */
const EXPORTS_GROUP = "exports";

/** The request's key; the guard has refused every request to a protected route without one. */
export function requestKey(res: Response): VerifiedKey {
  const key = KEYED.get(res);
  if (!key) throw new HttpError(401, "This route needs an API key: send Authorization: Bearer <API key>");
  return key;
}

/** Who the request acts for: its key's organisation and environment (every owned query filters on both). */
export function requestOwner(res: Response): KeyOwner {
  const { organisationId, environment } = requestKey(res);
  return { organisationId, environment };
}

/** The request's key on a public route, if one was sent (it then passed the guard). */
export function optionalRequestKey(res: Response): VerifiedKey | undefined {
  return KEYED.get(res);
}
