import { Writable } from "node:stream";
import pino from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadPool, type ReadPool } from "../../../src/db/read-pool";
import { createApp } from "../../../src/http/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** A logger whose JSON lines land in `messages` (their msg fields). */
function capturingLogger(messages: string[]): pino.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        messages.push((JSON.parse(line) as { msg: string }).msg);
      }
      done();
    },
  });
  return pino({ level: "info" }, sink);
}

describe("catalogue index preload (the product's start-up)", () => {
  let database: TestDatabase;
  let pool: ReadPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createReadPool(database.url, 4);
    await seedServices(database.db, [{ name: "Preloaded" }]);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("when the app is created with preloadIndex, then the index loads before any request and answers it", async () => {
    const messages: string[] = [];
    const app = createApp({
      db: database.db,
      pool,
      logger: capturingLogger(messages),
      indexRefreshMs: 60_000,
      preloadIndex: true,
    });

    // No request yet: only the preload can have loaded it.
    await expect.poll(() => messages, { timeout: 10_000, interval: 20 }).toContain("catalogue index loaded");
    const response = await request(app).get("/v1/services").expect(200);
    expect(response.body.items.map((item: { name: string }) => item.name)).toEqual(["Preloaded"]);
    expect(messages.filter((message) => message === "catalogue index loaded")).toHaveLength(1);
  });
});
