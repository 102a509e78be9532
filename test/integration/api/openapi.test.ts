import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { categoryListSchema, crawlRunListSchema, tagListSchema } from "../../../src/http/schemas/catalogue";
import { errorBodySchema } from "../../../src/http/schemas/common";
import { dailyListSchema } from "../../../src/http/schemas/daily";
import { endpointListSchema } from "../../../src/http/schemas/endpoints";
import {
  historyListSchema,
  serviceDetailSchema,
  serviceListSchema,
} from "../../../src/http/schemas/services";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { createTestDatabase, type TestDatabase } from "../../support/database";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const OPERATIONS = [
  "/v1/services",
  "/v1/services/{id}",
  "/v1/services/{id}/history",
  "/v1/services/{id}/history/daily",
  "/v1/endpoints",
  "/v1/categories",
  "/v1/tags",
  "/v1/crawls",
  "/v1/probe-sweeps",
  "/v1/preflight",
  "/v1/services.csv",
  "/v1/history.csv",
  "/v1/api-keys",
  "/v1/api-keys/{id}",
  "/v1/usage",
  "/v1/payment-orders",
  "/v1/payment-orders/{id}",
  "/v1/payment-orders/{id}/cancel",
  "/v1/plans",
  "/v1/merchant/subscriptions",
  "/v1/merchant/subscriptions/{id}",
  "/v1/merchant/subscriptions/{id}/change-plan",
  "/v1/merchant/subscriptions/{id}/cancel",
  "/v1/merchant/portal/invoices",
  "/v1/events",
  "/v1/webhook-endpoints",
  "/v1/webhook-endpoints/{id}",
  "/v1/webhook-endpoints/{id}/rotate-secret",
  "/v1/webhook-endpoints/{id}/test",
  "/v1/webhook-endpoints/{id}/deliveries",
  "/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry",
  "/v1/registrations",
  "/v1/registrations/{id}",
  "/v1/origins/{origin}/reindex",
  "/v1/registrations/{id}/ownership-challenge",
  "/v1/registrations/{id}/ownership-proof",
  "/v1/origin-owners/{origin}",
  "/v1/origin-owners/{origin}/report",
  "/v1/origin-owners/{origin}/deregister",
  "/v1/origin-owners/{origin}/reindex",
  "/v1/origin-owners/{origin}/webhook-endpoint",
  "/v1/x402-payments",
  "/v1/x402-payments.csv",
  "/healthz",
  "/readyz",
  "/",
];

/** Every object property of every component schema that has no description, as Component.path. */
function undescribedFields(node: Json, where: string, found: string[] = []): string[] {
  if (!node || typeof node !== "object" || Array.isArray(node)) return found;
  for (const [name, property] of Object.entries((node.properties ?? {}) as JsonObject)) {
    const field = property as JsonObject;
    const branches = (field.anyOf ?? []) as JsonObject[];
    if (!field.description && !field.$ref && !branches.some((b) => b.description))
      found.push(`${where}.${name}`);
    undescribedFields(field, `${where}.${name}`, found);
    for (const branch of branches) undescribedFields(branch, `${where}.${name}`, found);
  }
  if (node.items) undescribedFields(node.items, `${where}[]`, found);
  return found;
}

/** Every "$ref" in the document, wherever it is. */
function refs(node: Json, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refs(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push(value);
      else refs(value, found);
    }
  }
  return found;
}

describe("GET /openapi.json and /docs", () => {
  let database: TestDatabase;
  let api: TestApp;
  let document: JsonObject;
  let serviceId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    [serviceId] = await seedServices(database.db, [
      {
        name: "Stock Quotes API",
        domain: "quotes.test",
        category: "Finance",
        tags: ["stocks"],
        endpoints: [{ method: "GET", url: "https://quotes.test/q", description: "Quote" }],
        volumeUsdc30d: "12.5",
        uptime30d: 99,
        infoUpdatedAt: new Date("2026-01-01T00:00:00Z"),
        history: [
          { observedFrom: new Date("2026-01-01T00:00:00Z"), observedTo: new Date("2026-01-02T00:00:00Z") },
        ],
      },
    ]);
    const source = await database.db.source.findFirstOrThrow();
    const run = await database.db.crawlRun.create({ data: { sourceId: source.id, status: "completed" } });
    await database.db.crawlError.create({
      data: { crawlRunId: run.id, kind: "value", url: "http://x", message: "m" },
    });
    document = (await request(api.app).get("/openapi.json")).body as JsonObject;
  });
  afterAll(async () => {
    await api.close();
    await database.drop();
  });

  it("when the document is read, then it is OpenAPI 3.1 with every operation of the API", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys(document.paths as JsonObject).sort()).toEqual([...OPERATIONS].sort());
  });

  it("when its structure is checked, then every operation, parameter, response and reference is well formed", () => {
    const components = (document.components as JsonObject).schemas as JsonObject;
    for (const ref of refs(document)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(components[ref.replace("#/components/schemas/", "")], ref).toBeDefined();
    }
    const operations = Object.entries(document.paths as JsonObject).flatMap(([path, item]) =>
      Object.entries(item as JsonObject).map(([method, operation]) => ({ path, method, operation })),
    );
    for (const { path, method, operation: described } of operations) {
      expect(["get", "post", "put", "patch", "delete"]).toContain(method);
      const operation = described as JsonObject;
      expect(operation.summary, path).toEqual(expect.any(String));
      const parameters = (operation.parameters ?? []) as JsonObject[];
      const names = parameters.map((p) => `${p.in}:${p.name}`);
      expect(new Set(names).size, `${path} duplicate parameters`).toBe(names.length);
      for (const parameter of parameters) {
        expect(["query", "path", "header"]).toContain(parameter.in);
        expect(parameter.schema, `${path} ${parameter.name}`).toEqual(expect.any(Object));
        if (parameter.in === "path") expect(parameter.required).toBe(true);
      }
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => `path:${m[1]}`);
      expect(names.filter((n) => n.startsWith("path:")).sort()).toEqual(templated.sort());
      const responses = operation.responses as JsonObject;
      for (const code of Object.keys(responses)) expect(code).toMatch(/^[1-5]\d\d$/);
      // Health and readiness take no parameters, so refuse none (health checks add cache-busters).
      if (path === "/healthz" || path === "/readyz") continue;
      expect(Object.keys(responses)).toContain("400");
      const successes = Object.keys(responses).filter((code) => code.startsWith("2"));
      expect(successes, `${method} ${path} success`).toEqual([expectedSuccess(method, path)]);
      const badRequest = (responses["400"] as JsonObject).content as JsonObject;
      expect(((badRequest["application/json"] as JsonObject).schema as JsonObject).$ref).toBe(
        "#/components/schemas/Error",
      );
    }
  });

  it("when tools generate clients, then every operation has a unique operationId and security is declared per operation", () => {
    const operations = Object.values(document.paths as JsonObject).flatMap((item) =>
      Object.values(item as JsonObject).map((operation) => operation as JsonObject),
    );
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.security).toEqual([]);
  });

  it("when the answers' schemas are read, then every field says what it means", () => {
    const components = (document.components as JsonObject).schemas as JsonObject;
    const missing = Object.entries(components).flatMap(([name, schema]) => undescribedFields(schema, name));
    expect(missing).toEqual([]);
  });

  it("when /docs is opened, then it shows every field of the answers with its meaning", async () => {
    const page = (await request(api.app).get("/docs")).text;
    expect(page).toContain('<section id="schema-ProbeStats">');
    expect(page).toMatch(
      /<code>windows\.24h\.p50_ms<\/code><\/td><td>[^<]*<\/td><td>Median latency, ms rounded to 0\.1\.<\/td>/,
    );
    expect(page).toMatch(/<code>price_usdc_min<\/code><\/td><td>[^<]*<\/td><td>The lowest price per call/);
  });

  it("when the query parameters are listed, then they are exactly those the API accepts", () => {
    const names = (path: string) =>
      ((((document.paths as JsonObject)[path] as JsonObject).get as JsonObject).parameters as JsonObject[])
        .filter((p) => p.in === "query")
        .map((p) => p.name);
    expect(names("/v1/services")).toEqual([
      "q",
      "category",
      "tag",
      "method",
      "transport",
      "domain",
      "min_uptime",
      "max_response_ms",
      "min_volume",
      "min_tx",
      "min_payers",
      "updated_since",
      "network",
      "asset",
      "max_price",
      "include_unpriced",
      "pay_to",
      "source",
      "verified",
      "drift",
      "owner_verified",
      "status",
      "health",
      "min_grade",
      "min_score",
      "warning",
      "no_warning",
      "min_observed_volume",
      "min_unique_payers",
      "sort",
      "order",
      "offset",
      "limit",
    ]);
    expect(names("/v1/endpoints")).toEqual([
      "q",
      "method",
      "transport",
      "category",
      "max_price",
      "include_unpriced",
      "network",
      "verified",
      "drift",
      "payable",
      "callable",
      "health",
      "min_grade",
      "min_score",
      "warning",
      "no_warning",
      "min_observed_volume",
      "min_unique_payers",
      "sort",
      "offset",
      "limit",
    ]);
    expect(names("/v1/history.csv")).toEqual(["service_id", "series", "from", "to", "limit"]);
    const limit = (
      (((document.paths as JsonObject)["/v1/services"] as JsonObject).get as JsonObject)
        .parameters as JsonObject[]
    ).find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
  });

  it("when the API answers, then each answer matches the schema the document was generated from", async () => {
    const checks: Array<[string, z.ZodType]> = [
      ["/v1/services", serviceListSchema],
      ["/v1/services?q=stock&status=all", serviceListSchema],
      [`/v1/services/${serviceId}`, serviceDetailSchema],
      [`/v1/services/${serviceId}/history`, historyListSchema],
      [`/v1/services/${serviceId}/history/daily`, dailyListSchema],
      ["/v1/endpoints?q=quote", endpointListSchema],
      ["/v1/categories", categoryListSchema],
      ["/v1/tags", tagListSchema],
      ["/v1/crawls", crawlRunListSchema],
      ["/v1/services?limit=0", errorBodySchema],
      ["/v1/services/00000000-0000-4000-8000-000000000000", errorBodySchema],
    ];
    for (const [path, schema] of checks) {
      const response = await request(api.app).get(path);
      const result = schema.safeParse(response.body);
      expect(result.success, `${path}: ${result.error?.message}`).toBe(true);
      expect((response.body as { items?: unknown[] }).items ?? [response.body]).not.toHaveLength(0);
    }
  });

  it("when /docs is opened, then a self-contained page documents every operation and parameter", async () => {
    const response = await request(api.app).get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const path of OPERATIONS) expect(response.text).toContain(`<code>${path}</code>`);
    expect(response.text).toContain("<code>min_volume</code>");
    expect(response.text).not.toMatch(/<script|<link|src="http/);
  });

  it("when /docs is opened, then its table of contents links to every operation and answer schema", async () => {
    const page = (await request(api.app).get("/docs")).text;
    const document = (await request(api.app).get("/openapi.json")).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    const contents = page.slice(page.indexOf('<nav id="contents">'), page.indexOf("</nav>"));
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(operationIds.length).toBeGreaterThan(30);
    for (const id of operationIds) {
      expect(contents).toContain(`href="#op-${id}"`);
      expect(page).toContain(`<section id="op-${id}">`);
    }
    for (const name of Object.keys(document.components.schemas))
      expect(contents).toContain(`href="#schema-${name}"`);
  });

  it("when /docs is opened, then a POST or PATCH that takes a body shows the body's fields and an example", async () => {
    const page = (await request(api.app).get("/docs")).text;
    const section = page.slice(page.indexOf('<section id="op-createWebhookEndpoint">'));
    const own = section.slice(0, section.indexOf("</section>"));
    expect(own).toContain("<h3>Request body (JSON)</h3>");
    expect(own).toContain("<code>enabled_events</code> (required)");
    expect(own).toContain(
      "{&quot;url&quot;:&quot;https://hooks.example.com/x402&quot;,&quot;enabled_events&quot;:[&quot;*&quot;]}",
    );
    expect(page).toContain('<section id="op-updateWebhookEndpoint">');
  });
});

/**
 * The one success code each operation documents: what its handler answers. A POST that creates
 * answers 201 (a registration, found again or new, too), one that only queues work 202, one that
 * acts on an existing object or only reads (a preflight, a re-index, an ownership proof, a
 * deregistration) 200; a DELETE of a webhook endpoint has nothing left to show (204); reads answer 200.
 */
function expectedSuccess(method: string, path: string): string {
  if (method === "delete") return /^\/v1\/(webhook-endpoints|origin-owners)\//.test(path) ? "204" : "200";
  if (method !== "post") return "200";
  if (path.endsWith("/test") || path.endsWith("/retry")) return "202";
  if (["/preflight", "/reindex", "/ownership-proof", "/deregister"].some((end) => path.endsWith(end)))
    return "200";
  if (path.endsWith("/cancel") || path.endsWith("/rotate-secret") || path.endsWith("/change-plan"))
    return "200";
  return "201";
}
