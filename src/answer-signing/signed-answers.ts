import type { RequestHandler, Response } from "express";
import { routePolicy } from "../accounts/route-policy";
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

type Chunk = string | Uint8Array;
type Callback = (error?: Error | null) => void;

function asBuffer(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(chunk);
}

/**
 * Holds the answer back until it ends, so its signature can go in a header: the status line
 * (writeHead), headers flushed early and written chunks are kept, then signed and sent in one
 * piece. Only whole JSON answers pass here (streamed CSV exports are not in a signed group).
 */
function holdUntilEnd(res: Response, signBody: BodySigner): void {
  const { writeHead, write, end, flushHeaders } = res;
  const chunks: Buffer[] = [];
  let head: Parameters<typeof res.writeHead> | undefined;
  res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
    head = args;
    return res;
  }) as typeof res.writeHead;
  res.flushHeaders = () => {};
  res.write = ((chunk: Chunk, encoding?: BufferEncoding | Callback, callback?: Callback) => {
    chunks.push(asBuffer(chunk, typeof encoding === "string" ? encoding : undefined));
    const done = typeof encoding === "function" ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: Chunk | Callback, encoding?: BufferEncoding | Callback, callback?: Callback) => {
    if (chunk !== undefined && typeof chunk !== "function") {
      chunks.push(asBuffer(chunk, typeof encoding === "string" ? encoding : undefined));
    }
    const done = [chunk, encoding, callback].find((arg): arg is Callback => typeof arg === "function");
    Object.assign(res, { writeHead, write, end, flushHeaders });
    const body = Buffer.concat(chunks);
    if (head) {
      // The status is final once writeHead is called; the signature must see it.
      res.statusCode = head[0];
      if (!res.getHeader(SIGNATURE_HEADER) && !res.getHeader("content-encoding")) signBody(body);
      res.writeHead(...head);
    } else if (!res.headersSent && !res.getHeader(SIGNATURE_HEADER) && !res.getHeader("content-encoding")) {
      signBody(body);
    }
    return body.length > 0 ? res.end(body, done) : res.end(done);
  }) as typeof res.end;
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
    holdUntilEnd(res, signBody);
    next();
  };
}
