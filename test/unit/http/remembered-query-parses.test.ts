import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorHandler } from "../../../src/http/errors";
import { parseQuery } from "../../../src/http/validation";
import { testLogger } from "../../support/logger";

const schema = z.strictObject({
  tag: z.union([z.string(), z.array(z.string())]).optional(),
  limit: z.coerce.number().int().min(1).max(10).default(5),
});

/** A real Express app whose route parses its query as the list routes do, and says what it got. */
function app() {
  const server = express();
  server.set("query parser", "simple");
  server.get("/list", (req, res) => {
    const query = parseQuery(schema, req);
    let mutable = true;
    try {
      (query as { limit: number }).limit = 1;
    } catch {
      mutable = false;
    }
    res.json({ query, mutable });
  });
  server.use(errorHandler(testLogger));
  return server;
}

describe("remembered parses of a query string", () => {
  it("when the same query string is asked again, then the answer is the same parse, which no route can change", async () => {
    const server = app();
    const first = await request(server).get("/list?tag=a&tag=b&limit=3");
    const again = await request(server).get("/list?tag=a&tag=b&limit=3");
    expect(first.body.query).toEqual({ tag: ["a", "b"], limit: 3 });
    expect(again.body.query).toEqual({ tag: ["a", "b"], limit: 3 });
    expect([first.body.mutable, again.body.mutable]).toEqual([false, false]);
    expect((await request(server).get("/list?limit=4")).body.query).toEqual({ limit: 4 });
    expect((await request(server).get("/list")).body.query).toEqual({ limit: 5 });
  });

  it("when a refused query string is asked again, then it is refused again with the same message", async () => {
    const server = app();
    const first = await request(server).get("/list?limit=11");
    const again = await request(server).get("/list?limit=11");
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(again.body).toEqual(first.body);
    expect(first.text).toContain("limit");
  });
});
