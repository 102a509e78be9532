import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { registrationOperations } from "../../registrations/registration-operations";
import { x402PaymentOperations } from "../../x402-sales/payments-operations";
import { categoryListSchema, crawlRunListSchema, pagingQuery, tagListSchema } from "../schemas/catalogue";
import { errorBodySchema, MAX_EXPORT_LIMIT, noQuery } from "../schemas/common";
import { dailyListSchema, dailyQuery } from "../schemas/daily";
import { endpointListQuery, endpointListSchema } from "../schemas/endpoints";
import { healthSchema, readinessSchema, rootSchema } from "../schemas/operations";
import { preflightBody, preflightSchema } from "../schemas/preflight";
import { probeSweepListSchema } from "../schemas/probe-sweeps";
import {
  historyExportQuery,
  historyListSchema,
  historyQuery,
  serviceDetailSchema,
  serviceExportQuery,
  serviceIdParams,
  serviceListQuery,
  serviceListSchema,
} from "../schemas/services";
import { accountOperations, BEARER_SCHEME, bearerSecurityScheme, secured } from "./accounts-operations";
import { billingOperations } from "./billing-operations";
import { ownershipOperations } from "./ownership-operations";
import { eventAndWebhookOperations } from "./webhooks-operations";

/**
 * OpenAPI 3.1, generated from the very zod schemas that validate the requests and describe the
 * answers, so the document cannot drift from the code.
 */

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: errorBodySchema } },
});

const jsonResponse = (description: string, schema: z.ZodType) => ({
  200: { description, content: { "application/json": { schema } } },
  400: errorResponse("A parameter is invalid or unknown; the message names it and what is allowed."),
});

const csvResponse = (description: string) => ({
  200: {
    description,
    content: { "text/csv": { schema: z.string().meta({ description: "RFC 4180 CSV with a header row." }) } },
  },
  400: errorResponse("A parameter is invalid or unknown; the message names it and what is allowed."),
});

const notFound = { 404: errorResponse("No service has this id.") };

function routes(): RouteConfig[] {
  return [
    {
      method: "get",
      path: "/v1/services",
      operationId: "listServices",
      summary: "Search and filter services",
      description:
        "Listed services by default. Text search (q) ranks name and tags above description; filters combine " +
        "with AND; paging is stable (ties broken by id).",
      request: { query: serviceListQuery },
      responses: jsonResponse("A page of services.", serviceListSchema),
    },
    {
      method: "get",
      path: "/v1/services/{id}",
      operationId: "getService",
      summary: "One service",
      description:
        "The id of any row of a catalogue entry answers the whole entry, under its primary row's id.",
      request: { params: serviceIdParams, query: noQuery },
      responses: { ...jsonResponse("The service, listed or delisted.", serviceDetailSchema), ...notFound },
    },
    {
      method: "get",
      path: "/v1/services/{id}/history",
      operationId: "getServiceHistory",
      summary: "History of a service's figures",
      description: "Oldest first. from/to keep the intervals that overlap them.",
      request: { params: serviceIdParams, query: historyQuery },
      responses: { ...jsonResponse("A page of history intervals.", historyListSchema), ...notFound },
    },
    {
      method: "get",
      path: "/v1/services/{id}/history/daily",
      operationId: "getServiceDaily",
      summary: "A service's figures per day",
      description:
        "Every UTC day of the range, oldest first: our probes' uptime and p50/p99 latency, the prices " +
        "live challenges asked, and the claimed against the observed 30-day volume.",
      request: { params: serviceIdParams, query: dailyQuery },
      responses: { ...jsonResponse("One row per day.", dailyListSchema), ...notFound },
    },
    {
      method: "get",
      path: "/v1/endpoints",
      operationId: "listEndpoints",
      summary: "Search endpoints of listed services",
      request: { query: endpointListQuery },
      responses: jsonResponse("A page of endpoints, most relevant first.", endpointListSchema),
    },
    {
      method: "get",
      path: "/v1/categories",
      operationId: "listCategories",
      summary: "Categories with their count of listed services",
      request: { query: pagingQuery },
      responses: jsonResponse("Most used first.", categoryListSchema),
    },
    {
      method: "get",
      path: "/v1/tags",
      operationId: "listTags",
      summary: "Tags with their count of listed services",
      request: { query: pagingQuery },
      responses: jsonResponse("Most used first.", tagListSchema),
    },
    {
      method: "get",
      path: "/v1/crawls",
      operationId: "listCrawlRuns",
      summary: "Recent crawl runs with their counts and errors",
      request: { query: pagingQuery },
      responses: jsonResponse("Newest first.", crawlRunListSchema),
    },
    {
      method: "get",
      path: "/v1/probe-sweeps",
      operationId: "listProbeSweeps",
      summary: "Recent probe sweeps with their outcomes",
      description:
        "Scheduled sweeps and `npm run probe` runs; each counts the probes recorded until the next sweep.",
      request: { query: pagingQuery },
      responses: jsonResponse("Newest first.", probeSweepListSchema),
    },
    {
      method: "post",
      path: "/v1/preflight",
      operationId: "preflightEndpoint",
      summary: "Probe an endpoint now and judge it before paying",
      description:
        "One unpaid request through the SSRF guard, catalogued or not (a catalogued endpoint's probe is recorded): " +
        "the live challenge, payment options, payability, checks, grade and warnings. Answers are reused for 60 s " +
        "per method and URL; each key (or address without one) may ask 10 times a minute (429 beyond).",
      request: { body: { content: { "application/json": { schema: preflightBody } } } },
      responses: jsonResponse("The verdict on the live answer.", preflightSchema),
    },
    {
      method: "get",
      path: "/v1/services.csv",
      operationId: "exportServicesCsv",
      summary: "Export services as CSV",
      description:
        "The list's filters and sort, streamed. Without limit, every matching row; offset and limit (1 to " +
        `${MAX_EXPORT_LIMIT.toLocaleString("en")}) page it as on the list. Multi-valued cells (tags, endpoints as ` +
        "'METHOD URL', networks, sources) join their values with ' | '. Cells starting with = + - @ tab or CR are prefixed with ' " +
        "(formula injection).",
      request: { query: serviceExportQuery },
      responses: csvResponse("services.csv, streamed."),
    },
    {
      method: "get",
      path: "/v1/history.csv",
      operationId: "exportHistoryCsv",
      summary: "Export history as CSV",
      description: "By service, oldest first. Without service_id, the history of every service.",
      request: { query: historyExportQuery },
      responses: { ...csvResponse("history.csv, streamed."), ...notFound },
    },
    {
      method: "get",
      path: "/healthz",
      operationId: "getHealth",
      summary: "Health: does the database answer",
      description: "For load balancers and container health checks. Never cached.",
      request: { query: noQuery },
      responses: {
        200: {
          description: "The database answered.",
          content: { "application/json": { schema: healthSchema } },
        },
        503: {
          description: "The database did not answer within 2 s.",
          content: { "application/json": { schema: healthSchema } },
        },
      },
    },
    {
      method: "get",
      path: "/readyz",
      operationId: "getReadiness",
      summary: "Readiness: may this process take traffic",
      description:
        "For load balancers and Kubernetes readiness probes: ready once the in-memory catalogue has " +
        "loaded (the first load can take a while on a large catalogue) and while the database answers. " +
        "Never cached.",
      request: { query: noQuery },
      responses: {
        200: {
          description: "Ready.",
          content: { "application/json": { schema: readinessSchema } },
        },
        503: errorResponse(
          "Not ready; the message says why: the catalogue is loading, or the database does not answer.",
        ),
      },
    },
    {
      method: "get",
      path: "/",
      operationId: "getRoot",
      summary: "Where to start",
      description: "Links to the docs, this document and the main lists.",
      request: { query: noQuery },
      responses: jsonResponse("Links.", rootSchema),
    },
  ];
}

let document: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

export function openApiDocument() {
  if (document) return document;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", BEARER_SCHEME, bearerSecurityScheme);
  for (const route of [
    ...routes(),
    ...accountOperations(),
    ...billingOperations(),
    ...eventAndWebhookOperations(),
    ...registrationOperations(),
    ...ownershipOperations(),
    ...x402PaymentOperations(),
  ])
    registry.registerPath(secured(route));
  document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "x402 catalogue API",
      version: "1.0.0",
      description:
        "The catalogue of pay-per-call (x402) services. JSON with snake_case fields, ISO 8601 timestamps, " +
        "amounts as decimal strings. Lists answer { items, has_more, total } and page with offset and limit. " +
        "Errors answer { statusCode, message, error }. Unknown query parameters are refused.",
    },
    servers: [{ url: "/" }],
    // The default is public; operations that need a key declare it (secured, accounts-operations.ts).
    security: [],
  });
  return document;
}
