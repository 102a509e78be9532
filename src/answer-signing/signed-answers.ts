import type { RequestHandler, Response } from "express";
import { routePolicy } from "../accounts/route-policy";
import { holdWhenWritten } from "../http/held-answer";
import type { AnswerKeyRing } from "./answer-keys";
import { BodyDigests } from "./body-digests";
import { formatSignatureHeader, SIGNATURE_HEADER, signedString } from "./signed-string";

/** Signs one answer's body (without content coding); set on the responses of data routes only. */
type BodySigner = (body: Uint8Array) => void;

const SIGNERS = new WeakMap<Response, BodySigner>();

/** The route groups whose answers are signed: the catalogue's JSON reads and the MCP tools. */
const SIGNED_GROUPS = new Set(["catalogue"]);

/**
 * Signs the answer about to be sent with `body` (the bytes before any content coding), when the
 * request is one whose answers are signed, and lets it be written without being held. For
 * senders that compress their own answers (responses.ts): everything else is signed when it ends.
 */
export function signAnswerBody(res: Response, body: Uint8Array): void {
  SIGNERS.get(res)?.(body);
}

/**
 * Holds the answer back from its first write until it ends, so its signature can go in a header:
 * the answer is sent, signed, in one piece. Only whole JSON answers pass here (streamed CSV
 * exports are not in a signed group). Returns the signer for senders that sign before they write,
 * whose answers are never held.
 */
function signWhenEnded(res: Response, signBody: BodySigner): BodySigner {
  const hold = holdWhenWritten(res, Number.POSITIVE_INFINITY, (held) => {
    void held.outcome.then((outcome) => {
      if (outcome !== "complete") return;
      // The status is final once the route ends; the signature must see it.
      res.statusCode = held.status();
      if (!res.getHeader(SIGNATURE_HEADER) && !res.getHeader("content-encoding")) signBody(held.body());
      held.release();
    });
  });
  return (body) => {
    signBody(body);
    hold.passThrough();
  };
}

/** How many signatures of the current second are kept for answers asked again within it. */
const SAME_SECOND_SIGNATURES = 1_000;

/**
 * Every answer of the data routes carries an Ed25519 signature (SIGNATURE_HEADER) over its
 * method, path and query, status, body digest and time; the public keys are published at
 * /.well-known/x402-catalogue-keys.json. Mounted before the request guard, so its refusals
 * (401, 402, 429) are signed too.
 */
export function signedAnswers(keys: AnswerKeyRing, now: () => number = Date.now): RequestHandler {
  // Ed25519 is deterministic: an answer asked again within the same second (same key, request,
  // status and body) has the same signature, so a hot query is signed once a second.
  let second = -1;
  const signatures = new Map<string, string>();
  const digests = new BodyDigests();
  const signatureOf = (kid: string, message: string, timestamp: number): string => {
    if (timestamp !== second || signatures.size >= SAME_SECOND_SIGNATURES) {
      signatures.clear();
      second = timestamp;
    }
    const key = `${kid} ${message}`;
    let signature = signatures.get(key);
    if (signature === undefined) {
      signature = formatSignatureHeader({ timestamp, kid, signature: keys.sign(message) });
      signatures.set(key, signature);
    }
    return signature;
  };
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
        bodyDigest: digests.digestOf(body, etagOf(res)),
        timestamp,
      });
      res.setHeader(SIGNATURE_HEADER, signatureOf(keys.currentKeyId, message, timestamp));
    };
    SIGNERS.set(res, signWhenEnded(res, signBody));
    next();
  };
}

function etagOf(res: Response): string | undefined {
  const etag = res.getHeader("ETag");
  return typeof etag === "string" ? etag : undefined;
}
