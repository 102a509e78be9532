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

/** What holdWhenWritten gives its caller. */
export interface DeferredHold {
  /** As HeldAnswer.passThrough; before anything was written, the answer is never held at all. */
  passThrough(): void;
}

/**
 * holdAnswer, started only when the route first writes (writeHead, write, end or flushHeaders),
 * with `started` told of the hold before the write goes into it. An answer let through before
 * that (passThrough) costs no hold at all: what most answers of a signed route do, since their
 * sender signs them before it writes (responses.ts).
 */
export function holdWhenWritten(
  res: Response,
  maxBytes: number,
  started: (held: HeldAnswer) => void,
): DeferredHold {
  const { writeHead, write, end, flushHeaders } = res;
  let held: HeldAnswer | undefined;
  // Assigned one by one: Object.assign on a response costs more than the rest of this together.
  const untrap = () => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
    res.flushHeaders = flushHeaders;
  };
  const start = () => {
    untrap();
    held = holdAnswer(res, maxBytes);
    started(held);
  };
  const traps = {
    writeHead: ((...args: Parameters<typeof res.writeHead>) => {
      start();
      return res.writeHead(...args);
    }) as typeof res.writeHead,
    write: ((...args: Parameters<typeof res.write>) => {
      start();
      return res.write(...(args as [Chunk, BufferEncoding, Callback]));
    }) as typeof res.write,
    end: ((...args: unknown[]) => {
      start();
      return (res.end as (...args: unknown[]) => Response)(...args);
    }) as typeof res.end,
    flushHeaders: () => {
      start();
      res.flushHeaders();
    },
  };
  res.writeHead = traps.writeHead;
  res.write = traps.write;
  res.end = traps.end;
  res.flushHeaders = traps.flushHeaders;
  return {
    passThrough() {
      if (held !== undefined) {
        held.passThrough();
        return;
      }
      // Wrapped since by a later hold (a paid answer's): it writes through the traps when it releases.
      const trapped =
        res.writeHead === traps.writeHead &&
        res.write === traps.write &&
        res.end === traps.end &&
        res.flushHeaders === traps.flushHeaders;
      if (trapped) untrap();
    },
  };
}
