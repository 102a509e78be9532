import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREFLIGHTS_PER_MINUTE, preflightWith } from "../../../src/trust/preflight";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { testProbeSettings } from "../../support/probe";
import { v2ChallengeHeader } from "../../support/x402-challenges";
import { X402Fixture } from "../../support/x402-fixture";

describe("POST /v1/preflight and the preflight_endpoint tool", () => {
  let database: TestDatabase;
  let api: TestApp;
  let origin: X402Fixture;
  let endpointId: string;
  let server: http.Server;
  let client: Client;
  let ip = 0;
  /** Each test speaks from its own address, so the per-address limit is only met where it is tested. */
  const post = (body: unknown, from = `10.0.0.${++ip}`) =>
    request(api.app)
      .post("/v1/preflight")
      .set("x-forwarded-for", from)
      .send(body as object);

  beforeAll(async () => {
    database = await createTestDatabase();
    origin = await new X402Fixture().start();
    origin.set("/paid", {
      status: 402,
      headers: { "PAYMENT-REQUIRED": v2ChallengeHeader(origin.url("/paid")) },
      body: "",
    });
    origin.set("/paid-too", {
      status: 402,
      headers: { "PAYMENT-REQUIRED": v2ChallengeHeader(origin.url("/paid-too")) },
      body: "",
    });
    await seedServices(database.db, [
      { name: "paid", endpoints: [{ method: "GET", url: origin.url("/paid") }] },
    ]);
    endpointId = (await database.db.endpoint.findFirstOrThrow()).id;
    api = createTestApp(database, {
      preflight: preflightWith(database.db, testProbeSettings()),
      trustProxy: 1,
    });
    server = http.createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    client = new Client({ name: "preflight-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(
        new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
      ),
    );
  });
  afterAll(async () => {
    await client?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
    await origin?.stop();
    await database?.drop();
  });

  it("when a catalogued endpoint is preflighted, then its live challenge is judged and the probe recorded", async () => {
    const response = await post({ url: origin.url("/paid") });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      method: "GET",
      cached: false,
      catalogued: { endpoint_id: endpointId },
      outcome: "challenge",
      status_code: 402,
      x402_version: 2,
      payable: true,
      warnings: [],
      auth_only: false,
      idempotent: false,
      self_reported: { service_name: null, tags: [], icon_url: null },
    });
    expect(response.body.payment_options[0]).toMatchObject({ price_kind: "exact", payable: true });
    expect(response.body.checks.find((c: { id: string }) => c.id === "signing_domain")).toMatchObject({
      result: "pass",
    });
    // http://127.0.0.1 is not https: capped at C.
    expect(response.body.grade).toBe("C");
    expect(await database.db.endpointProbe.count({ where: { endpointId } })).toBe(1);
  });

  it("when the same URL is asked again within 60 s, then the answer is reused and the origin not called", async () => {
    const before = origin.requests.length;
    const response = await post({ url: origin.url("/paid") });
    expect(response.body.cached).toBe(true);
    expect(origin.requests.length).toBe(before);
  });

  it("when an uncatalogued URL answers 404, then it is judged F and nothing is recorded", async () => {
    const response = await post({ url: origin.url("/missing"), method: "POST" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      catalogued: null,
      outcome: "http_error",
      status_code: 404,
      grade: "F",
      payable: false,
    });
    expect(await database.db.endpointProbe.count()).toBe(1);
  });

  it("when the URL points at an address the SSRF guard refuses, then nothing is sent and the outcome says so", async () => {
    const response = await post({ url: "http://127.0.0.2:9/internal" });
    expect(response.body).toMatchObject({ outcome: "refused", status_code: null });
  });

  it("when the body is not a valid request, then 400 says why", async () => {
    const response = await post({ url: "ftp://example.com/x", extra: 1 });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/url|extra/);
  });

  it("when one address asks more than the limit in a minute, then 429 with Retry-After", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PREFLIGHTS_PER_MINUTE; i++)
      statuses.push((await post({ url: origin.url("/paid") }, "10.9.9.9")).status);
    expect(statuses.slice(0, PREFLIGHTS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const refused = await post({ url: origin.url("/paid") }, "10.9.9.9");
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
  });

  it("when an agent calls preflight_endpoint over MCP, then it gets the same verdict", async () => {
    const result = await client.callTool({
      name: "preflight_endpoint",
      arguments: { url: origin.url("/paid-too") },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ outcome: "challenge", payable: true, catalogued: null });
  });
});
