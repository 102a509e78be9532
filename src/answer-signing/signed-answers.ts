import type { RequestHandler, Response } from "express";
import { routePolicy } from "../accounts/route-policy";
import { holdAnswer } from "../http/held-answer";
import type { AnswerKeyRing } from "./answer-keys";
import { formatSignatureHeader, SIGNATURE_HEADER, signedString } from "./signed-string";

/** Signs one answer's body (without content coding); set on the responses of data routes only. */
type BodySigner = (body: Uint8Array) => void;

const SIGNERS = new WeakMap<Response, BodySigner>();

/** The route groups whose answers are signed: the catalogue's JSON reads and the MCP tools. */
const SIGNED_GROUPS = new Set(["catalogue"]);

/**
 * Signs the answer about to be sent with `body` (the bytes before any content coding), when the
 * request is one whose answers are signed. For senders that compress their own answers
 * (responses.ts): everything else is signed when it ends.
 */
export function signAnswerBody(res: Response, body: Uint8Array): void {
  SIGNERS.get(res)?.(body);
}

/**
 * Holds the answer back until it ends, so its signature can go in a header: the answer is sent,
 * signed, in one piece. Only whole JSON answers pass here (streamed CSV exports are not in a
 * signed group).
 */
function signWhenEnded(res: Response, signBody: BodySigner): void {
  const held = holdAnswer(res, Number.POSITIVE_INFINITY);
  void held.outcome.then((outcome) => {
    if (outcome !== "complete") return;
    // The status is final once the route ends; the signature must see it.
    res.statusCode = held.status();
    if (!res.getHeader(SIGNATURE_HEADER) && !res.getHeader("content-encoding")) signBody(held.body());
    held.release();
  });
}

/**
 * Every answer of the data routes carries an Ed25519 signature (SIGNATURE_HEADER) over its
 * method, path and query, status, body digest and time; the public keys are published at
 * /.well-known/x402-catalogue-keys.json. Mounted before the request guard, so its refusals
 * (401, 402, 429) are signed too.
 */
export function signedAnswers(keys: AnswerKeyRing, now: () => number = Date.now): RequestHandler {
  return (req, res, next) => {
    if (!SIGNED_GROUPS.has(routePolicy(req.path, req.method).group)) {
      next();
      return;
    }
    const signBody: BodySigner = (body) => {
      if (res.headersSent) return;
      const timestamp = Math.floor(now() / 1000);
      const message = signedString({
        method: req.method,
        target: req.originalUrl,
        status: res.statusCode,
        body,
        timestamp,
      });
      const header = formatSignatureHeader({
        timestamp,
        kid: keys.currentKeyId,
        signature: keys.sign(message),
      });
      res.setHeader(SIGNATURE_HEADER, header);
    };
    SIGNERS.set(res, signBody);
    signWhenEnded(res, signBody);
    next();
  };
}
