import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueKey } from "../../support/accounts";
import { createTestApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { FixtureOrigins } from "../../support/fixture-origins";
import { testRegistrar } from "../../support/registrations";
import type { FixtureAnswer } from "../../support/x402-fixture";
import { officialV1Answers, officialV2Answers, SELLER_EVM } from "../../support/x402-official-servers";

const WELL_KNOWN = "/.well-known/x402";
const ANONYMOUS_PER_HOUR = 3;

/** A canned answer as the fixture origins serve it. */
const served = (answer: FixtureAnswer) => ({
  status: answer.status,
  headers: answer.headers,
  body: typeof answer.body === "string" ? answer.body : (answer.body?.toString("utf8") ?? ""),
});

interface RegistrationJson {
  id: string;
  kind: string;
  state: string;
  reason: string | null;
  listed: { method: string; url: string; service_id: string }[];
  verdict: { probe: { outcome: string; status_code: number } | null; manifest: { outcome: string } } | null;
}

/**
 * Sellers register URLs and origins through the API. Made-up origins (`*.example`) live on one
 * loopback server, answering with 402 challenges made by the official x402 server libraries;
 * the address guard lets loopback through as PROBE_ALLOWED_NETWORKS would.
 */
describe("registrations", () => {
  let database: TestDatabase;
  let origins: FixtureOrigins;
  let api: TestApp;
  const at = (host: string) => origins.origin(host);
  // Each test submits from its own address, so the anonymous limit of one test never meets another's.
  const post = (address: string, body: object) =>
    request(api.app).post("/v1/registrations").set("X-Forwarded-For", address).send(body);
  const eventsOf = (type: string) => database.db.event.findMany({ where: { type }, orderBy: { seq: "asc" } });

  beforeAll(async () => {
    database = await createTestDatabase();
    origins = await new FixtureOrigins().start();
    const [cents, dimes] = await officialV2Answers({
      "GET /quote": {
        accepts: { scheme: "exact", price: "$0.01", network: "eip155:84532", payTo: SELLER_EVM },
      },
      "GET /dimes": {
        accepts: { scheme: "exact", price: "$0.10", network: "eip155:84532", payTo: SELLER_EVM },
      },
    });
    const [legacy] = await officialV1Answers({ "/legacy": { price: "$0.02", network: "base-sepolia" } });
    origins.serve("alpha.example", "/quote", served(cents!));
    origins.serve("alpha.example", "/legacy", served(legacy!));
    origins.serve("pricey.example", "/quote", served(cents!));
    origins.serve("free.example", "/open", { json: { ok: true } });
    origins.serve("manifest.example", WELL_KNOWN, {
      json: {
        x402Version: 2,
        resources: [
          `${at("manifest.example")}/one`,
          { url: `${at("manifest.example")}/two`, accepts: [] },
          { url: `${at("manifest.example")}/three`, description: "the third" },
        ],
      },
    });
    origins.serve("changing.example", "/quote", served(cents!));
    origins.serve("changing.example", "/dimes", served(dimes!));
    api = createTestApp(database, {
      trustProxy: ["loopback"],
      registrar: testRegistrar(database, { anonymousPerHour: ANONYMOUS_PER_HOUR }),
    });
  });
  afterAll(async () => {
    await api?.close();
    await origins?.stop();
    await database?.drop();
  });

  it("when a URL answering an official x402 challenge is registered, then it is listed under source registered, probed, and service.listed is emitted", async () => {
    const url = `${at("alpha.example")}/quote`;
    const answer = await post("10.0.0.1", { url }).expect(201);
    const registration = answer.body as RegistrationJson;
    expect(registration).toMatchObject({
      kind: "url",
      state: "listed",
      reason: null,
      origin: at("alpha.example"),
    });
    expect(registration.listed).toEqual([{ method: "GET", url, service_id: expect.any(String) }]);
    expect(registration.verdict?.probe).toMatchObject({ outcome: "challenge", status_code: 402 });
    expect(registration.verdict?.manifest).toMatchObject({ outcome: "absent" });

    const detail = await request(api.app)
      .get(`/v1/services/${registration.listed[0]!.service_id}`)
      .expect(200);
    expect(detail.body.sources).toEqual([
      expect.objectContaining({ kind: "registered", source: at("alpha.example"), status: "listed" }),
    ]);
    const endpoint = detail.body.endpoints.find((e: { url: string }) => e.url === url);
    expect(endpoint.probe.last_probe).toMatchObject({ outcome: "challenge", challenge_valid: true });
    expect(endpoint.payment_options).toContainEqual(
      expect.objectContaining({
        origin: "listing",
        network: "eip155:84532",
        price_usdc: "0.01",
        pay_to: SELLER_EVM,
      }),
    );
    const listed = await eventsOf("service.listed");
    expect(listed.map((e) => e.serviceId)).toContain(registration.listed[0]!.service_id);

    const read = await request(api.app).get(`/v1/registrations/${registration.id}`).expect(200);
    expect(read.body).toEqual(registration);
  });

  it("when the same URL is submitted again, then the same registration comes back and nothing is written twice", async () => {
    const url = `${at("alpha.example")}/legacy`;
    const first = (await post("10.0.0.2", { url }).expect(201)).body as RegistrationJson;
    const events = await database.db.event.count();
    const again = await post("10.0.0.3", { url }).expect(201);
    expect(again.body.id).toBe(first.id);
    expect(await database.db.registration.count({ where: { url } })).toBe(1);
    expect(await database.db.endpoint.count({ where: { url } })).toBe(1);
    expect(await database.db.event.count()).toBe(events);
  });

  it("when a URL answers no x402 challenge, then it is refused with 422 saying why, and nothing is listed", async () => {
    const url = `${at("free.example")}/open`;
    const answer = await post("10.0.0.4", { url }).expect(422);
    expect(answer.body.message).toMatch(
      /^Not listed: GET .*\/open answered HTTP 200 without an x402 payment challenge/,
    );
    expect(answer.body.message).toContain("answers_402: answers 200, not 402");
    const registration = answer.body.registration as RegistrationJson;
    expect(registration).toMatchObject({ state: "refused", listed: [] });
    expect(registration.verdict?.probe).toMatchObject({ outcome: "no_challenge", status_code: 200 });
    expect(await database.db.endpoint.count({ where: { url } })).toBe(0);
    // Submitted again, it is checked again under the same id.
    const again = await post("10.0.0.5", { url }).expect(422);
    expect(again.body.registration.id).toBe(registration.id);
  });

  it("when a URL is not a public address, then the address guard refuses it", async () => {
    const answer = await post("10.0.0.6", { url: "http://internal.example/x" }).expect(422);
    expect(answer.body.message).toMatch(
      /is not a public address the catalogue may call: .*10\.1\.2\.3 is a private address/,
    );
  });

  it("when one address without a key submits more than its hourly allowance, then 429 with Retry-After; a key with catalogue:register is not held to it", async () => {
    const url = `${at("pricey.example")}/quote`;
    for (let i = 0; i < ANONYMOUS_PER_HOUR; i += 1)
      await post("10.0.0.7", { url }).expect((r) => r.status < 300);
    const refused = await post("10.0.0.7", { url }).expect(429);
    expect(refused.body.message).toMatch(/at most 3 registrations an hour/);
    expect(Number(refused.get("Retry-After"))).toBeGreaterThan(0);

    const { key } = await issueKey(database.db, "seller", "live", ["catalogue:register"]);
    const keyed = await post("10.0.0.7", { url }).set("Authorization", `Bearer ${key}`).expect(201);
    expect(keyed.body.state).toBe("listed");
    const { key: readOnly } = await issueKey(database.db, "reader", "live", ["catalogue:read"]);
    await post("10.0.0.8", { url }).set("Authorization", `Bearer ${readOnly}`).expect(403);
  });

  it("when a body is malformed, then 400 names the problem", async () => {
    const both = await post("10.0.0.9", {
      url: `${at("alpha.example")}/quote`,
      origin: at("alpha.example"),
    }).expect(400);
    expect(both.body.message).toMatch(/give exactly one of url or origin/);
    const path = await post("10.0.0.9", { origin: `${at("alpha.example")}/path` }).expect(400);
    expect(path.body.message).toMatch(/origin: must be an origin only/);
    const unknown = await post("10.0.0.9", { url: `${at("alpha.example")}/quote`, price: 1 }).expect(400);
    expect(unknown.body.message).toMatch(/unknown body parameter "price"/);
    await request(api.app).get("/v1/registrations/not-a-uuid").expect(400);
    await request(api.app).get("/v1/registrations/00000000-0000-4000-8000-000000000000").expect(404);
  });

  it("when an origin is registered, then every resource its manifest lists is listed", async () => {
    const origin = at("manifest.example");
    const answer = await post("10.0.1.1", { origin }).expect(201);
    const registration = answer.body as RegistrationJson;
    expect(registration).toMatchObject({ kind: "origin", state: "listed" });
    expect(registration.listed.map((l) => l.url)).toEqual([
      `${origin}/one`,
      `${origin}/three`,
      `${origin}/two`,
    ]);
    expect(registration.verdict?.manifest).toMatchObject({ outcome: "read", resources: 3 });
  });

  it("when an origin publishes no manifest, then its registration is refused with the manifest's absence as the reason", async () => {
    const answer = await post("10.0.1.2", { origin: at("free.example") }).expect(422);
    expect(answer.body.message).toMatch(
      /publishes no x402 manifest: no manifest \(\/\.well-known\/x402: HTTP 404/,
    );
  });
});
