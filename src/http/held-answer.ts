import type { Response } from "express";

type Chunk = string | Uint8Array;
type Callback = (error?: Error | null) => void;

/**
 * How a held answer came out: the route ended it within the bound (`complete`), it grew past
 * the bound (`too_large`: it is released and streams on), or the client left first (`closed`).
 */
export type HeldOutcome = "complete" | "too_large" | "closed";

export interface HeldAnswer {
  outcome: Promise<HeldOutcome>;
  /** The status the route answered with. */
  status(): number;
  /** The bytes held (the whole body of a complete answer, before any content coding of its own). */
  body(): Buffer;
  /** Sends what is held (headers set before this are sent with it) and lets the rest through. */
  release(): void;
  /**
   * Lets the answer through unheld when nothing is held yet and no later hold wraps this one
   * (its sender has already set what the hold waited for); says whether it did.
   */
  passThrough(): boolean;
}

/**
 * Holds a route's answer back while the route writes it, so that something learnt from the whole
 * answer can still go in a header: its signature (answer-signing), its payment's settlement
 * (x402-sales). The status line, headers flushed early and written chunks are kept until
 * `release()`. At most `maxBytes` are held: a larger answer (a big CSV export) is reported as
 * `too_large` as soon as it passes the bound.
 */
export function holdAnswer(res: Response, maxBytes: number): HeldAnswer {
  const { writeHead, write, end, flushHeaders } = res;
  const chunks: Buffer[] = [];
  let held = 0;
  let head: Parameters<typeof res.writeHead> | undefined;
  let ended = false;
  let released = false;
  let decide: (outcome: HeldOutcome) => void = () => {};
  const outcome = new Promise<HeldOutcome>((resolve) => {
    decide = resolve;
  });
  const keep = (chunk: Chunk | undefined, encoding: unknown) => {
    if (chunk === undefined) return;
    const buffer =
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk);
    chunks.push(buffer);
    held += buffer.length;
  };
  res.once("close", () => decide("closed"));
  res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
    head = args;
    return res;
  }) as typeof res.writeHead;
  res.flushHeaders = () => {};
  res.write = ((chunk: Chunk, encoding?: BufferEncoding | Callback, callback?: Callback) => {
    keep(chunk, encoding);
    const done = typeof encoding === "function" ? encoding : callback;
    if (done) process.nextTick(done);
    if (held > maxBytes) decide("too_large");
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: Chunk | Callback, encoding?: BufferEncoding | Callback, callback?: Callback) => {
    if (typeof chunk !== "function") keep(chunk, encoding);
    const done = [chunk, encoding, callback].find((arg): arg is Callback => typeof arg === "function");
    if (done) res.once("finish", () => done());
    ended = true;
    decide("complete");
    return res;
  }) as typeof res.end;

  const ours = { writeHead: res.writeHead, write: res.write, end: res.end };
  const answer: HeldAnswer = {
    outcome,
    status: () => head?.[0] ?? res.statusCode,
    body: () => Buffer.concat(chunks),
    passThrough() {
      const unwrapped = res.writeHead === ours.writeHead && res.write === ours.write && res.end === ours.end;
      if (released || !unwrapped || head !== undefined || chunks.length > 0 || ended) return false;
      answer.release();
      return true;
    },
    release() {
      if (released) return;
      released = true;
      Object.assign(res, { writeHead, write, end, flushHeaders });
      // Headers set while held (the settlement) are merged with the held status line's.
      if (head) res.writeHead(...head);
      for (const chunk of chunks) res.write(chunk);
      chunks.length = 0;
      if (ended) res.end();
    },
  };
  return answer;
}

/** What holdWhenWritten calls when the route first writes: the hold it started, and the response. */
export type HoldStarted = (held: HeldAnswer, res: Response) => void;

/** A response whose hold waits for its first write: its bound, whom to tell, and the hold once started. */
interface DeferredHold {
  maxBytes: number;
  started: HoldStarted;
  held: HeldAnswer | undefined;
}

/** Responses waiting for their first write, and those whose hold has started (until they end). */
const DEFERRED = new WeakMap<Response, DeferredHold>();

type Writer = "writeHead" | "write" | "end" | "flushHeaders";
const WRITERS: readonly Writer[] = ["writeHead", "write", "end", "flushHeaders"];

/** The traps of every app made holdable: how holdWhenWritten knows a response passes through them. */
const TRAPS = new WeakSet<object>();

/**
 * A trap for one writing method, on the responses' prototype: a response with a deferred hold
 * starts it, then writes into it; any other goes straight to the inherited method. Nothing is
 * set on a response itself until its hold starts (own properties cost more than the rest).
 */
function trap(method: Writer, inherited: (...args: unknown[]) => unknown) {
  const trapped = function (this: Response, ...args: unknown[]): unknown {
    const deferred = DEFERRED.get(this);
    if (deferred === undefined || deferred.held !== undefined) return inherited.apply(this, args);
    deferred.held = holdAnswer(this, deferred.maxBytes);
    deferred.started(deferred.held, this);
    return (this[method] as (...args: unknown[]) => unknown)(...args);
  };
  TRAPS.add(trapped);
  return trapped;
}

/**
 * Lets the app's answers be held from their first write (holdWhenWritten): its responses'
 * prototype (Express's `app.response`) gets a trap for each writing method.
 */
export function makeResponsesHoldable(app: { response: object }): void {
  const response = app.response as Record<Writer, (...args: unknown[]) => unknown>;
  for (const method of WRITERS) response[method] = trap(method, response[method]);
}

/**
 * holdAnswer, started only when the route first writes (writeHead, write, end or flushHeaders),
 * with `started` told of the hold before the write goes into it. An answer let through before
 * that (letThrough) costs no hold at all: what most answers of a signed route do, since their
 * sender signs them before it writes (responses.ts). The app must be made holdable first.
 */
export function holdWhenWritten(res: Response, maxBytes: number, started: HoldStarted): void {
  if (!TRAPS.has(res.write))
    throw new Error("holdWhenWritten: the app's responses are not holdable (makeResponsesHoldable)");
  DEFERRED.set(res, { maxBytes, started, held: undefined });
}

/** As HeldAnswer.passThrough for a hold of holdWhenWritten; before anything was written, it is never held at all. */
export function letThrough(res: Response): void {
  const deferred = DEFERRED.get(res);
  if (deferred === undefined) return;
  if (deferred.held !== undefined) {
    deferred.held.passThrough();
    return;
  }
  // Wrapped since by a later hold (a paid answer's): it writes through the traps when it releases.
  if (TRAPS.has(res.write)) DEFERRED.delete(res);
}
