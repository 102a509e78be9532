import type { RequestHandler, Response } from "express";
import { routePolicy } from "../accounts/route-policy";
import { type HoldStarted, holdWhenWritten, letThrough } from "../http/held-answer";
import type { AnswerKeyRing } from "./answer-keys";
import { BodyDigests } from "./body-digests";
import { formatSignatureHeader, SIGNATURE_HEADER, signedString } from "./signed-string";

/** Signs one answer of a response of a data route: its body (without content coding) as it is sent. */
interface AnswerSigner {
  sign(res: Response, body: Uint8Array): void;
  /** Signs a held answer once its route has ended it, and sends it. */
  whenHeld: HoldStarted;
}

/** The signer of each response of a data route. */
const SIGNERS = new WeakMap<Response, AnswerSigner>();

/** The route groups whose answers are signed: the catalogue's JSON reads and the MCP tools. */
const SIGNED_GROUPS = new Set(["catalogue"]);

/**
 * Signs the answer about to be sent with `body` (the bytes before any content coding), when the
 * request is one whose answers are signed, and lets it be written without being held. For
 * senders that compress their own answers (responses.ts): everything else is held from its first
 * write until it ends, and signed then.
 */
export function signAnswerBody(res: Response, body: Uint8Array): void {
  const signer = SIGNERS.get(res);
  if (signer === undefined) return;
  signer.sign(res, body);
  letThrough(res);
}

/** How many signatures of the current second are kept for answers asked again within it. */
const SAME_SECOND_SIGNATURES = 1_000;

/**
 * Every answer of the data routes carries an Ed25519 signature (SIGNATURE_HEADER) over its
 * method, path and query, status, body digest and time; the public keys are published at
 * /.well-known/x402-catalogue-keys.json. Mounted before the request guard, so its refusals
 * (401, 402, 429) are signed too. An answer is signed as its sender writes it (signAnswerBody) or,
 * held from its first write, once it ends: the answer is sent, signed, in one piece. Only whole
 * JSON answers pass here (streamed CSV exports are not in a signed group).
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
  const signer: AnswerSigner = {
    sign(res, body) {
      if (res.headersSent) return;
      const timestamp = Math.floor(now() / 1000);
      const message = signedString({
        method: res.req.method,
        target: res.req.originalUrl,
        status: res.statusCode,
        bodyDigest: digests.digestOf(body, etagOf(res)),
        timestamp,
      });
      res.setHeader(SIGNATURE_HEADER, signatureOf(keys.currentKeyId, message, timestamp));
    },
    whenHeld(held, res) {
      void held.outcome.then((outcome) => {
        if (outcome !== "complete") return;
        // The status is final once the route ends; the signature must see it.
        res.statusCode = held.status();
        if (!res.getHeader(SIGNATURE_HEADER) && !res.getHeader("content-encoding"))
          signer.sign(res, held.body());
        held.release();
      });
    },
  };
  return (req, res, next) => {
    if (SIGNED_GROUPS.has(routePolicy(req.path, req.method).group)) {
      SIGNERS.set(res, signer);
      holdWhenWritten(res, Number.POSITIVE_INFINITY, signer.whenHeld);
    }
    next();
  };
}

function etagOf(res: Response): string | undefined {
  const etag = res.getHeader("ETag");
  return typeof etag === "string" ? etag : undefined;
}
