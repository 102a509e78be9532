import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveTrustVerdicts, type TrustVerdictRow } from "../../../src/catalogue/trust-queries";
import type { Grade } from "../../../src/trust/grade";
import type { Health } from "../../../src/trust/health";
import type { Warning } from "../../../src/trust/warnings";
import { createTestApp, type TestApp } from "../../support/app";
import { seedServices } from "../../support/catalogue";
import { parseCsv } from "../../support/csv";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { connectMcp, type McpConnection } from "../../support/mcp";
import { firstEndpointId } from "../../support/payments";

interface Verdict {
  health: Health;
  grade: Grade | null;
  score: number | null;
  warnings: Warning[];
}

/** Each service, with the verdicts its one endpoint and itself get (a service's are its endpoints'). */
const SERVICES: Array<[name: string, verdict: Verdict]> = [
  ["Alpha", { health: "live", grade: "A", score: 95, warnings: [] }],
  ["Bravo", { health: "degraded", grade: "B", score: 82, warnings: ["slow"] }],
  ["Charlie", { health: "down", grade: "D", score: 55, warnings: ["down", "decoy_price"] }],
  ["Delta", { health: "dead", grade: "F", score: 10, warnings: ["dead"] }],
  ["Echo", { health: "unknown", grade: null, score: null, warnings: [] }],
];

const row = (id: string, verdict: Verdict): TrustVerdictRow => ({
  id,
  healthReason: `${verdict.health} in this test`,
  healthChanged: true,
  checks: null,
  ...verdict,
});

const urlOf = (name: string) => `https://${name.toLowerCase()}.test/call`;

describe("trust verdicts in the lists, the searches, MCP and services.csv", () => {
  let database: TestDatabase;
  let api: TestApp;
  let mcp: McpConnection;
  let client: Client;
  const ids: Record<string, string> = {};

  const services = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/services?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.items.map((item: { name: string }) => item.name);
  };
  const endpoints = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/endpoints?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.items.map((item: { service_name: string }) => item.service_name).sort();
  };

  /** The endpoints' services' names in the list's order. */
  const endpointsInOrder = async (query: string): Promise<string[]> => {
    const response = await request(api.app).get(`/v1/endpoints?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.items.map((item: { service_name: string }) => item.service_name);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    api = createTestApp(database);
    const seeded = await seedServices(
      database.db,
      SERVICES.map(([name]) => ({
        name,
        domain: `${name.toLowerCase()}.test`,
        endpoints: [{ method: "GET", url: urlOf(name), description: `${name} call` }],
      })),
    );
    const endpointRows: TrustVerdictRow[] = [];
    const serviceRows: TrustVerdictRow[] = [];
    for (const [k, [name, verdict]] of SERVICES.entries()) {
      const id = seeded[k] as string;
      ids[name] = id;
      endpointRows.push(row(await firstEndpointId(database.db, id), verdict));
      serviceRows.push(row(id, verdict));
    }
    await saveTrustVerdicts(database.db, endpointRows, serviceRows, [], new Date());
    mcp = await connectMcp(api.app, "trust-filters-test");
    client = mcp.client;
  });
  afterAll(async () => {
    await mcp.close();
    await api.close();
    await database.drop();
  });

  it("when no health is asked, then dead services and endpoints are left out; health=dead shows them", async () => {
    expect(await services("sort=name")).toEqual(["Alpha", "Bravo", "Charlie", "Echo"]);
    expect(await endpoints("")).toEqual(["Alpha", "Bravo", "Charlie", "Echo"]);
    expect(await services("sort=name&health=dead")).toEqual(["Delta"]);
    expect(await endpoints("health=dead")).toEqual(["Delta"]);
    expect(await services("sort=name&health=live&health=down")).toEqual(["Alpha", "Charlie"]);
    expect(await endpoints("health=unknown&health=degraded")).toEqual(["Bravo", "Echo"]);
    // A search hides them too.
    expect(await services("q=delta")).toEqual([]);
    expect(await services("q=delta&health=dead")).toEqual(["Delta"]);
  });

  it("when a dead service is asked for by id, then its detail shows it", async () => {
    const response = await request(api.app).get(`/v1/services/${ids.Delta}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: "Delta",
      health: "dead",
      grade: "F",
      score: 10,
      warnings: ["dead"],
    });
  });

  it("when min_grade or min_score is given, then only entries graded or scored at least that come", async () => {
    expect(await services("sort=name&min_grade=B")).toEqual(["Alpha", "Bravo"]);
    expect(await services("sort=name&min_grade=F")).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(await services("sort=name&min_grade=F&health=dead")).toEqual(["Delta"]);
    expect(await services("sort=name&min_score=55")).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(await services("sort=name&min_score=56")).toEqual(["Alpha", "Bravo"]);
    expect(await endpoints("min_grade=A")).toEqual(["Alpha"]);
    expect(await endpoints("min_score=80")).toEqual(["Alpha", "Bravo"]);
  });

  it("when warning or no_warning is given, then every warning named must be present, or none of them", async () => {
    expect(await services("sort=name&warning=slow")).toEqual(["Bravo"]);
    expect(await services("sort=name&warning=down&warning=decoy_price")).toEqual(["Charlie"]);
    expect(await services("sort=name&warning=down&warning=slow")).toEqual([]);
    expect(await services("sort=name&no_warning=slow&no_warning=down")).toEqual(["Alpha", "Echo"]);
    expect(await endpoints("warning=decoy_price")).toEqual(["Charlie"]);
    expect(await endpoints("no_warning=slow")).toEqual(["Alpha", "Charlie", "Echo"]);
  });

  it("when services are sorted by score, then the highest come first and the unscored last", async () => {
    expect(await services("sort=score")).toEqual(["Alpha", "Bravo", "Charlie", "Echo"]);
    expect(await services("sort=score&order=asc")).toEqual(["Charlie", "Bravo", "Alpha", "Echo"]);
  });

  it("when endpoints are sorted by score, then the highest come first and the unscored last, with q or without", async () => {
    expect(await endpointsInOrder("sort=score")).toEqual(["Alpha", "Bravo", "Charlie", "Echo"]);
    expect(await endpointsInOrder("q=call&sort=score")).toEqual(["Alpha", "Bravo", "Charlie", "Echo"]);
    expect(await endpointsInOrder("sort=score&health=dead&health=unknown&health=down")).toEqual([
      "Charlie",
      "Delta",
      "Echo",
    ]);
    const refused = await request(api.app).get("/v1/endpoints?sort=grade");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("sort: must be one of relevance, price, score");
  });

  it("when a list is read, then each item carries health, grade, score and warnings", async () => {
    const listed = await request(api.app).get("/v1/services?sort=name&health=down");
    expect(listed.body.items[0]).toMatchObject({
      name: "Charlie",
      health: "down",
      grade: "D",
      score: 55,
      warnings: ["down", "decoy_price"],
    });
    const hits = await request(api.app).get("/v1/endpoints?health=unknown");
    expect(hits.body.items[0]).toMatchObject({
      url: urlOf("Echo"),
      health: "unknown",
      grade: null,
      score: null,
      warnings: [],
    });
  });

  it("when a value is not one the filter knows, then the answer is a 400 naming it", async () => {
    for (const [query, message] of [
      ["health=zombie", "health: must be one of unknown, live, degraded, down, dead"],
      ["min_grade=E", "min_grade: must be one of A, B, C, D, F"],
      ["min_score=101", "min_score: must be a whole number from 0 to 100"],
      ["warning=scam", "warning: must be one of dead, down, zombie"],
      ["no_warning=", "no_warning: must be one of"],
    ] as const) {
      for (const path of ["/v1/services", "/v1/endpoints", "/v1/services.csv"]) {
        const response = await request(api.app).get(`${path}?${query}`);
        expect(response.status, `${path}?${query}`).toBe(400);
        expect(JSON.stringify(response.body), `${path}?${query}`).toContain(message);
      }
    }
  });

  it("when services.csv is read, then health, grade, score and warnings are columns and dead ones come only when asked", async () => {
    const rowsOf = async (query: string) => {
      const response = await request(api.app).get(`/v1/services.csv?sort=name${query}`);
      expect(response.status).toBe(200);
      const [header, ...rows] = parseCsv(response.text);
      const at = (column: string) => (header ?? []).indexOf(column);
      return rows.map((r) => [
        r[at("name")],
        r[at("health")],
        r[at("grade")],
        r[at("score")],
        r[at("warnings")],
      ]);
    };
    expect(await rowsOf("")).toEqual([
      ["Alpha", "live", "A", "95", ""],
      ["Bravo", "degraded", "B", "82", "slow"],
      ["Charlie", "down", "D", "55", "down | decoy_price"],
      ["Echo", "unknown", "", "", ""],
    ]);
    expect(await rowsOf("&health=dead")).toEqual([["Delta", "dead", "F", "10", "dead"]]);
    expect(await rowsOf("&min_grade=B&no_warning=slow")).toEqual([["Alpha", "live", "A", "95", ""]]);
  });

  it("when the MCP search tools are called, then they filter and show the verdicts as REST does", async () => {
    const found = await client.callTool({
      name: "search_services",
      arguments: { sort: "score", min_grade: "C", fields: ["name", "health", "grade", "score", "warnings"] },
    });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { items: unknown[] }).items).toEqual([
      { name: "Alpha", health: "live", grade: "A", score: 95, warnings: [] },
      { name: "Bravo", health: "degraded", grade: "B", score: 82, warnings: ["slow"] },
    ]);
    const dead = await client.callTool({
      name: "search_endpoints",
      arguments: { health: ["dead"], fields: ["url", "health", "warnings"] },
    });
    expect((dead.structuredContent as { items: unknown[] }).items).toEqual([
      { url: urlOf("Delta"), health: "dead", warnings: ["dead"] },
    ]);
    const hidden = await client.callTool({
      name: "search_endpoints",
      arguments: { q: "delta", fields: ["url"] },
    });
    expect((hidden.structuredContent as { total: number }).total).toBe(0);
    const refused = await client.callTool({ name: "search_services", arguments: { min_grade: "Z" } });
    expect(refused.isError).toBe(true);
  });

  it("when search_endpoints sorts by score, then it answers in the order REST does", async () => {
    const sorted = await client.callTool({
      name: "search_endpoints",
      arguments: { sort: "score", fields: ["url", "score"] },
    });
    expect(sorted.isError).toBeFalsy();
    expect((sorted.structuredContent as { items: unknown[] }).items).toEqual([
      { url: urlOf("Alpha"), score: 95 },
      { url: urlOf("Bravo"), score: 82 },
      { url: urlOf("Charlie"), score: 55 },
      { url: urlOf("Echo"), score: null },
    ]);
  });

  it("when a sweep changes an endpoint's score, then the score order follows", async () => {
    expect(await endpointsInOrder("sort=score")).toEqual(["Alpha", "Bravo", "Charlie", "Echo"]);
    const echo = await firstEndpointId(database.db, ids.Echo as string);
    const verdict: Verdict = { health: "live", grade: "A", score: 99, warnings: [] };
    await saveTrustVerdicts(database.db, [row(echo, verdict)], [], [], new Date());
    expect(await endpointsInOrder("sort=score")).toEqual(["Echo", "Alpha", "Bravo", "Charlie"]);
  });
});
