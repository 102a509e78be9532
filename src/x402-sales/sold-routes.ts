import { z } from "zod";
import type { PriceGroup } from "../config/x402-settings";
import { dailyQuery } from "../http/schemas/daily";
import { endpointListQuery } from "../http/schemas/endpoints";
import { preflightBody } from "../http/schemas/preflight";
import {
  historyExportQuery,
  historyQuery,
  serviceExportQuery,
  serviceIdParams,
  serviceListQuery,
} from "../http/schemas/services";
import { searchServicesInput } from "../mcp/server";

/**
 * The routes the catalogue sells over x402, each with its price group and its input as JSON
 * Schema derived from the zod schema that validates it (the Bazaar discovery extension declares
 * it). A caller without a key pays for these past the anonymous allowance (the CSV exports: past
 * the daily CSV rows), or always for the groups in X402_PAID_ROUTES; every other route keeps
 * answering 429 past the allowance. The CSV exports are priced by the rows they ask for.
 */
export interface SoldRoute {
  /** The x402 route pattern: method, space, path (`:name` matches one segment). */
  pattern: string;
  method: "GET" | "POST";
  /** Which paths it matches, as written (src/http/router.ts routes only the canonical form). */
  matches: RegExp;
  group: PriceGroup;
  description: string;
  input:
    | { kind: "query"; schema: z.ZodType; pathParams?: z.ZodType }
    | { kind: "body"; schema: z.ZodType; example: Record<string, unknown> }
    | { kind: "mcp"; tool: string; schema: z.ZodType; example: Record<string, unknown> };
}

export const SOLD_ROUTES: readonly SoldRoute[] = [
  {
    pattern: "GET /v1/services",
    method: "GET",
    matches: /^\/v1\/services$/,
    group: "search",
    description: "Search the catalogue of x402 services",
    input: { kind: "query", schema: serviceListQuery },
  },
  {
    pattern: "GET /v1/endpoints",
    method: "GET",
    matches: /^\/v1\/endpoints$/,
    group: "search",
    description: "Find an x402 endpoint that does a task, under a price, payable",
    input: { kind: "query", schema: endpointListQuery },
  },
  {
    pattern: "GET /v1/services/:id/history",
    method: "GET",
    matches: /^\/v1\/services\/[^/]+\/history$/,
    group: "detail",
    description: "A service's 30-day figures over time",
    input: { kind: "query", schema: historyQuery, pathParams: serviceIdParams },
  },
  {
    pattern: "GET /v1/services/:id/history/daily",
    method: "GET",
    matches: /^\/v1\/services\/[^/]+\/history\/daily$/,
    group: "detail",
    description: "A service's probes, prices and claimed against observed volume per day",
    input: { kind: "query", schema: dailyQuery, pathParams: serviceIdParams },
  },
  {
    pattern: "GET /v1/services/:id",
    method: "GET",
    matches: /^\/v1\/services\/[^/]+$/,
    group: "detail",
    description: "One service with endpoints, payment options, payability and probes",
    input: { kind: "query", schema: z.strictObject({}), pathParams: serviceIdParams },
  },
  {
    pattern: "POST /v1/preflight",
    method: "POST",
    matches: /^\/v1\/preflight$/,
    group: "preflight",
    description: "Probe an x402 endpoint now: its live challenge, payability, checks, grade and warnings",
    input: {
      kind: "body",
      schema: preflightBody,
      example: { url: "https://api.seller.example/v1/quote", method: "GET" },
    },
  },
  {
    pattern: "POST /mcp",
    method: "POST",
    matches: /^\/mcp$/,
    group: "search",
    description: "The catalogue's MCP tools (Streamable HTTP), one JSON-RPC call",
    input: { kind: "mcp", tool: "search_services", schema: searchServicesInput, example: { q: "weather" } },
  },
  {
    pattern: "GET /v1/services.csv",
    method: "GET",
    matches: /^\/v1\/services\.csv$/,
    group: "csv",
    description: "The catalogue's services as CSV, priced per 1,000 rows asked for",
    input: { kind: "query", schema: serviceExportQuery },
  },
  {
    pattern: "GET /v1/history.csv",
    method: "GET",
    matches: /^\/v1\/history\.csv$/,
    group: "csv",
    description: "The services' 30-day figures over time as CSV, priced per 1,000 rows asked for",
    input: { kind: "query", schema: historyExportQuery },
  },
];

/**
 * The sold route a request reaches, if any. HEAD is not sold (the x402 library matches the
 * method exactly): past the allowance it stays 429.
 */
export function soldRoute(method: string, path: string): SoldRoute | undefined {
  return SOLD_ROUTES.find((route) => route.method === method && route.matches.test(path));
}

/** A zod schema's input as JSON Schema, for the Bazaar extension and the manifest. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return json;
}
