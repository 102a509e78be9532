import { createHash } from "node:crypto";
import type { Request, Router } from "express";
import { priceKindOf } from "../../payability/requirement-verdict";
import { type Preflight, PreflightLimited, type PreflightResult } from "../../trust/preflight";
import { HttpError } from "../errors";
import { jsonBody } from "../json-body";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { preflightBody } from "../schemas/preflight";
import { parseInput } from "../validation";

export function preflightJson(url: string, method: string, r: PreflightResult) {
  return {
    url,
    method,
    checked_at: r.checkedAt.toISOString(),
    cached: r.cached,
    catalogued: r.catalogued && { service_id: r.catalogued.serviceId, endpoint_id: r.catalogued.endpointId },
    outcome: r.probe.outcome,
    status_code: r.probe.statusCode,
    x402_version: r.probe.x402Version,
    challenge_valid: r.probe.challengeValid,
    error: r.probe.error,
    auth_only: r.probe.traits.auth_only,
    idempotent: r.probe.traits.idempotent,
    extensions: r.probe.traits.extensions,
    self_reported: r.probe.traits.self_reported,
    payment_options: r.probe.options.map((o) => ({
      origin: "probe" as const,
      scheme: o.scheme,
      price_kind: priceKindOf(o.scheme),
      network: o.network,
      network_name: o.network_name,
      asset: o.asset,
      asset_symbol: o.asset_symbol,
      amount_atomic: o.amount_atomic,
      price_usdc: o.price_usdc,
      pay_to: o.pay_to,
      max_timeout_seconds: o.max_timeout_seconds,
      warnings: o.warnings,
      payable: o.payable,
      unpayable_reasons: o.unpayable_reasons,
      observed_at: r.checkedAt.toISOString(),
    })),
    payable: r.payable,
    checks: r.checks,
    grade: r.verdict.grade,
    score: r.verdict.score,
    warnings: r.warnings,
  };
}

/** Counted per key when one is sent (hashed: the limiter never holds a key), else per address. */
export function preflightCaller(req: Request): string {
  const authorization = req.get("authorization");
  if (authorization) return `key:${createHash("sha256").update(authorization).digest("hex")}`;
  return `ip:${req.ip ?? "unknown"}`;
}

/** POST /v1/preflight: probe an endpoint now (catalogued or not) and judge it. */
export function preflightRouter(preflight: Preflight): Router {
  const router = apiRouter();
  router
    .route("/v1/preflight")
    .post(jsonBody("8kb"), async (req, res) => {
      const body = parseInput(preflightBody, req.body ?? {}, "body");
      let result: PreflightResult;
      try {
        result = await preflight.run(body, preflightCaller(req));
      } catch (error) {
        if (!(error instanceof PreflightLimited)) throw error;
        res.set("Retry-After", String(error.retryAfterSeconds));
        throw new HttpError(429, error.message);
      }
      res.set("Cache-Control", "no-store").json(preflightJson(body.url, body.method, result));
    })
    .all(methodNotAllowed);
  return router;
}
