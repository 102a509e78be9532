import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../../src/http/server";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** Sends raw bytes (fetch cannot send an oversized request line) and reads the whole answer. */
async function rawRequest(port: number, text: string): Promise<{ status: number; body: unknown }> {
  const socket = net.connect(port, "127.0.0.1");
  socket.write(text);
  let answer = "";
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString();
  });
  await new Promise((resolve) => socket.on("close", resolve));
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: JSON.parse(body) };
}

describe("HTTP edges of the real server", () => {
  let database: TestDatabase;
  let api: TestApp;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    server = await listen(api.app, 0, "127.0.0.1");
  });
  afterAll(async () => {
    await server.close();
    await api.close();
    await database.drop();
  });

  it("when the request line is over Node's limit, then the answer is 414 with the JSON error body", async () => {
    const answer = await rawRequest(
      server.port,
      `GET /v1/services?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(answer).toEqual({
      status: 414,
      body: { statusCode: 414, message: expect.stringContaining("request line"), error: "URI Too Long" },
    });
  });

  it("when the headers are over Node's limit, then the answer is 431 with the JSON error body", async () => {
    const answer = await rawRequest(
      server.port,
      `GET /v1/services HTTP/1.1\r\nHost: x\r\nCookie: ${"c".repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toEqual({
      status: 431,
      body: {
        statusCode: 431,
        message: expect.stringContaining("headers"),
        error: "Request Header Fields Too Large",
      },
    });
  });

  it("when / is opened, then it answers links to the docs, the OpenAPI document and the services", async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      links: { docs: "/docs", openapi: "/openapi.json", services: "/v1/services" },
    });
  });
  it("when a client drips its headers past the headers timeout, then the server answers 408 and closes the connection", async () => {
    const strict = await listen(api.app, 0, "127.0.0.1", { headersMs: 1_000, requestMs: 2_000 });
    const socket = net.connect(strict.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString();
    });
    const closed = new Promise<boolean>((resolve) => socket.on("close", () => resolve(true)));
    socket.write("GET /v1/services HTTP/1.1\r\nHost: x\r\n");
    // One header line every 200 ms for up to 20 s: far past the timeout, never finishing the headers.
    let drips = 0;
    const drip = setInterval(() => {
      if (socket.writable && drips < 100) socket.write(`X-Drip-${drips++}: 1\r\n`);
    }, 200);
    const outcome = await Promise.race([
      closed,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    clearInterval(drip);
    socket.destroy();
    await strict.close();
    expect(outcome).toBe(true);
    expect(drips).toBeLessThan(100);
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    expect(JSON.parse(answer.split("\r\n\r\n")[1] ?? "")).toMatchObject({ statusCode: 408 });
  });
});
