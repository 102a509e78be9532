import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerKeyRing } from "../../../src/answer-signing/answer-keys";
import { type PublishedKeys, verifyAnswer } from "../../support/answer-signatures";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

const SIGNATURE = "x-catalogue-signature";

/** One request as sent, with the raw bytes of the answer (no client-side decoding). */
function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? "GET", headers: init.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on("error", reject);
    request.end(init.body);
  });
}

describe("signed answers", () => {
  let database: TestDatabase;
  let api: TestApp;
  let server: http.Server;
  let baseUrl: string;
  let keys: PublishedKeys;
  let serviceId: string;
  const unrelated = AnswerKeyRing.ephemeral();

  beforeAll(async () => {
    database = await createTestDatabase();
    const seed = Buffer.alloc(32, 7);
    const oldSeed = Buffer.alloc(32, 9);
    api = createTestApp(database, { answerKeys: new AnswerKeyRing(seed, [oldSeed]) });
    [serviceId] = await seedServices(database.db, [
      {
        name: "Stock Quotes",
        domain: "quotes.test",
        category: "Finance",
        description: "Real-time stock quotes",
      },
    ]);
    server = http.createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    keys = (await (await fetch(`${baseUrl}/.well-known/x402-catalogue-keys.json`)).json()) as PublishedKeys;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await database.drop();
  });

  it("when the keys are read, then the current key and the retiring one are published, never a private part", async () => {
    expect(keys.keys.map((key) => key.status)).toEqual(["current", "retiring"]);
    expect(
      keys.keys.every((key) => key.crv === "Ed25519" && Buffer.from(key.x, "base64url").length === 32),
    ).toBe(true);
    expect(JSON.stringify(keys)).not.toMatch(/"d"/);
    expect(keys.keys.map((key) => key.kid)).not.toContain(unrelated.currentKeyId);
  });

  it("when a search is answered, then its signature verifies against the published key, and a tampered body fails", async () => {
    const target = "/v1/services?q=stock&limit=5";
    const answer = await rawRequest(`${baseUrl}${target}`);
    expect(answer.status).toBe(200);
    const header = String(answer.headers[SIGNATURE]);
    expect(verifyAnswer(keys, { method: "GET", target, status: 200, body: answer.body, header })).toBe(true);
    const tampered = Buffer.from(answer.body.toString("utf8").replace("Stock", "Stork"));
    expect(verifyAnswer(keys, { method: "GET", target, status: 200, body: tampered, header })).toBe(false);
    expect(
      verifyAnswer(keys, {
        method: "GET",
        target: "/v1/services?q=other",
        status: 200,
        body: answer.body,
        header,
      }),
    ).toBe(false);
    expect(verifyAnswer(keys, { method: "GET", target, status: 404, body: answer.body, header })).toBe(false);
  });

  it("when the answer is gzipped, then the signature covers the body without content coding", async () => {
    const target = `/v1/services/${serviceId}`;
    const answer = await rawRequest(`${baseUrl}${target}`, { headers: { "accept-encoding": "gzip" } });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    const identity = await rawRequest(`${baseUrl}${target}`);
    const header = String(answer.headers[SIGNATURE]);
    expect(verifyAnswer(keys, { method: "GET", target, status: 200, body: identity.body, header })).toBe(
      true,
    );
    expect(gunzipSync(answer.body).equals(identity.body)).toBe(true);
  });

  it("when a data route refuses a request, then the refusal is signed too", async () => {
    const target = "/v1/services?colour=blue";
    const answer = await rawRequest(`${baseUrl}${target}`);
    expect(answer.status).toBe(400);
    const header = String(answer.headers[SIGNATURE]);
    expect(verifyAnswer(keys, { method: "GET", target, status: 400, body: answer.body, header })).toBe(true);
  });

  it("when an MCP tool answers, then the JSON-RPC answer is signed", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const answer = await rawRequest(`${baseUrl}/mcp`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.toString("utf8")).toContain("search_services");
    const header = String(answer.headers[SIGNATURE]);
    expect(
      verifyAnswer(keys, { method: "POST", target: "/mcp", status: 200, body: answer.body, header }),
    ).toBe(true);
  });

  it("when a route outside the data routes answers, then it carries no signature", async () => {
    const answer = await rawRequest(`${baseUrl}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers[SIGNATURE]).toBeUndefined();
  });
});
