import type { Request, Response, Router } from "express";
import { HttpError } from "../http/errors";
import { jsonBody } from "../http/json-body";
import { optionalRequestKey } from "../http/request-guard";
import { methodNotAllowed } from "../http/responses";
import { apiRouter } from "../http/router";
import { noQuery } from "../http/schemas/common";
import { parseInput } from "../http/validation";
import { type Registrar, RegistrationLimited } from "./registrar";
import { registrationJson, reindexJson } from "./registration-json";
import { findRegistrationsOfOrigin, type Submitter } from "./registrations";
import { originParams, registrationBody, registrationIdParams } from "./schemas";
import { targetOf } from "./target";

/** Who submits: the request's key when one was sent (it passed the guard), else the client address. */
export function submitterOf(req: Request, res: Response): Submitter {
  const key = optionalRequestKey(res);
  if (key !== undefined)
    return {
      kind: "key",
      apiKeyId: key.id,
      organisationId: key.organisationId,
      environment: key.environment,
    };
  return { kind: "anonymous", address: req.ip ?? "unknown" };
}

function limited(res: Response, error: unknown): never {
  if (!(error instanceof RegistrationLimited)) throw error;
  res.set("Retry-After", String(error.retryAfterSeconds));
  throw new HttpError(429, error.message);
}

function available(registrar: Registrar | undefined): Registrar {
  if (registrar === undefined) throw new HttpError(503, "Registrations are not taken by this server");
  return registrar;
}

/**
 * Re-indexes a registered origin now and answers what it read: 404 when the origin is not
 * registered, 429 past its hourly re-indexes, 409 while another check of it runs. Keys with
 * catalogue:register and the origin's verified owner (src/http/routes/ownership.ts) ask this.
 */
export async function answerReindex(registrar: Registrar, origin: string, res: Response): Promise<void> {
  const registered = await findRegistrationsOfOrigin(registrar.deps.db, origin);
  if (registered.length === 0)
    throw new HttpError(
      404,
      `${origin} is not registered: POST /v1/registrations with {"origin": "${origin}"}`,
    );
  const result = await registrar.reindex(origin).catch((error: unknown) => limited(res, error));
  res.set("Cache-Control", "no-store");
  if (!result.ran) {
    res.set("Retry-After", "5");
    throw new HttpError(409, `A check of ${origin} is under way; try again in a few seconds`);
  }
  res.json(reindexJson(result));
}

/**
 * POST /v1/registrations, GET /v1/registrations/{id}, POST /v1/origins/{origin}/reindex. A
 * submission is checked within the request (manifest read, URL probed, what passes stored) and
 * answered with the registration, new or found again: 201 listed (or pending, when another check
 * of the origin held it up), 422 refused with the reason.
 */
export function registrationsRouter(registrar: Registrar | undefined): Router {
  const router = apiRouter();
  router
    .route("/v1/registrations")
    .post(jsonBody("8kb"), async (req, res) => {
      parseInput(noQuery, req.query, "query");
      const body = parseInput(registrationBody, req.body ?? {}, "body");
      const { registration } = await available(registrar)
        .register(targetOf(body), submitterOf(req, res))
        .catch((error: unknown) => limited(res, error));
      const json = registrationJson(registration);
      res.set("Cache-Control", "no-store");
      if (registration.state === "refused") {
        const message = `Not listed: ${registration.reason ?? "nothing answered a valid x402 challenge"}`;
        res.status(422).json({ statusCode: 422, message, error: "Unprocessable Entity", registration: json });
        return;
      }
      res.status(201).json(json);
    })
    .all(methodNotAllowed);
  router
    .route("/v1/registrations/:id")
    .get(async (req, res) => {
      parseInput(noQuery, req.query, "query");
      const { id } = parseInput(registrationIdParams, req.params, "path");
      const registration = await available(registrar).find(id);
      if (registration === null) throw new HttpError(404, `No registration with id ${id}`);
      res.set("Cache-Control", "no-store").json(registrationJson(registration));
    })
    .all(methodNotAllowed);
  router
    .route("/v1/origins/:origin/reindex")
    .post(async (req, res) => {
      parseInput(noQuery, req.query, "query");
      const { origin } = parseInput(originParams, req.params, "path");
      await answerReindex(available(registrar), origin, res);
    })
    .all(methodNotAllowed);
  return router;
}
