import express, { type Express } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { errorHandler } from "../../../src/http/errors";
import { holdWhenWritten, letThrough, makeResponsesHoldable } from "../../../src/http/held-answer";
import { testLogger } from "../../support/logger";

/**
 * A real Express app whose middleware defers a hold on every answer, as answer signing does: a
 * started hold waits for the whole answer, puts its length and its last byte in a header, and
 * sends it. `/early` lets its answer through before writing, as a sender that signs it does.
 */
function app(holdable: boolean, starts: string[]): Express {
  const server = express();
  if (holdable) makeResponsesHoldable(server);
  server.use((req, res, next) => {
    holdWhenWritten(res, Number.POSITIVE_INFINITY, (held, response) => {
      starts.push(req.path);
      void held.outcome.then(() => {
        const body = held.body();
        response.setHeader("X-Held", `${body.length}:${body.subarray(-1).toString()}`);
        held.release();
      });
    });
    next();
  });
  server.get("/pieces", (_req, res) => {
    res.status(201);
    res.write("one,");
    res.write(Buffer.from("two,"));
    res.end("three");
  });
  server.get("/json", (_req, res) => {
    res.json({ answer: 42 });
  });
  server.get("/early", (_req, res) => {
    letThrough(res);
    res.setHeader("X-Sent", "unheld");
    res.end("plain");
  });
  server.use(errorHandler(testLogger));
  return server;
}

describe("answers held from their first write", () => {
  it("when a route writes its answer in pieces, then the hold starts once, sees the whole answer and its status, and sends it", async () => {
    const starts: string[] = [];
    const answer = await request(app(true, starts)).get("/pieces");
    expect(answer.status).toBe(201);
    expect(answer.text).toBe("one,two,three");
    expect(answer.headers["x-held"]).toBe("13:e");
    expect(starts).toEqual(["/pieces"]);
  });

  it("when a route answers with res.json, then the hold sees the JSON before it is sent", async () => {
    const starts: string[] = [];
    const answer = await request(app(true, starts)).get("/json");
    expect(answer.body).toEqual({ answer: 42 });
    expect(answer.headers["x-held"]).toBe("13:}");
  });

  it("when an answer is let through before it is written, then no hold starts and the next response is held again", async () => {
    const starts: string[] = [];
    const server = app(true, starts);
    const early = await request(server).get("/early");
    expect(early.text).toBe("plain");
    expect(early.headers["x-held"]).toBeUndefined();
    expect(starts).toEqual([]);
    await request(server).get("/pieces");
    expect(starts).toEqual(["/pieces"]);
  });

  it("when the app's responses were not made holdable, then deferring a hold fails loudly rather than sending unheld", async () => {
    const answer = await request(app(false, [])).get("/json");
    expect(answer.status).toBe(500);
    expect(answer.headers["x-held"]).toBeUndefined();
  });
});
