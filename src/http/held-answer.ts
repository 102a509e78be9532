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

/** A response whose hold waits for its first write: what its traps replaced, and what to tell. */
interface DeferredHold {
  writeHead: Response["writeHead"];
  write: Response["write"];
  end: Response["end"];
  flushHeaders: Response["flushHeaders"];
  maxBytes: number;
  started: HoldStarted;
  held: HeldAnswer | undefined;
}

const DEFERRED = new WeakMap<Response, DeferredHold>();

/** Puts back what the traps replaced. */
function untrap(res: Response, deferred: DeferredHold): void {
  res.writeHead = deferred.writeHead;
  res.write = deferred.write;
  res.end = deferred.end;
  res.flushHeaders = deferred.flushHeaders;
}

type Writer = "writeHead" | "write" | "end" | "flushHeaders";

/**
 * A trap for one writing method: starts the hold, then writes into it. Made once for every
 * response (they find their response as `this`), so deferring a hold allocates no function.
 */
function trap(method: Writer) {
  return function (this: Response, ...args: unknown[]): unknown {
    const deferred = DEFERRED.get(this);
    if (deferred !== undefined && deferred.held === undefined) {
      untrap(this, deferred);
      deferred.held = holdAnswer(this, deferred.maxBytes);
      deferred.started(deferred.held, this);
    }
    return (this[method] as (...args: unknown[]) => unknown)(...args);
  };
}

const TRAPS = {
  writeHead: trap("writeHead") as Response["writeHead"],
  write: trap("write") as Response["write"],
  end: trap("end") as Response["end"],
  flushHeaders: trap("flushHeaders") as Response["flushHeaders"],
};

/**
 * holdAnswer, started only when the route first writes (writeHead, write, end or flushHeaders),
 * with `started` told of the hold before the write goes into it. An answer let through before
 * that (letThrough) costs no hold at all: what most answers of a signed route do, since their
 * sender signs them before it writes (responses.ts).
 */
export function holdWhenWritten(res: Response, maxBytes: number, started: HoldStarted): void {
  const { writeHead, write, end, flushHeaders } = res;
  DEFERRED.set(res, { writeHead, write, end, flushHeaders, maxBytes, started, held: undefined });
  // Assigned one by one: Object.assign on a response costs more than the rest of this together.
  res.writeHead = TRAPS.writeHead;
  res.write = TRAPS.write;
  res.end = TRAPS.end;
  res.flushHeaders = TRAPS.flushHeaders;
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
  const trapped =
    res.writeHead === TRAPS.writeHead &&
    res.write === TRAPS.write &&
    res.end === TRAPS.end &&
    res.flushHeaders === TRAPS.flushHeaders;
  if (trapped) untrap(res, deferred);
}
