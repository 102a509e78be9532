import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { preflightJson } from "../http/routes/preflight";
import { categoryCountSchema } from "../http/schemas/catalogue";
import { emptyAnswerHintSchema, integerParam, queryReadingSchema } from "../http/schemas/common";
import { endpointHitSchema, endpointListQuery } from "../http/schemas/endpoints";
import { preflightBody, preflightSchema } from "../http/schemas/preflight";
import {
  fromBeforeTo,
  historyEntrySchema,
  historyQuery,
  serviceDetailSchema,
  serviceFilterParams,
  serviceIdParams,
  serviceSchema,
} from "../http/schemas/services";
import {
  ENDPOINT_SORTS,
  endpointFilterNames,
  relevanceNeedsQ,
  serviceFilterNames,
} from "../search/catalogue-search";
import { type Preflight, PreflightLimited } from "../trust/preflight";
import type { CatalogueReader, JsonList, JsonObject, SearchList } from "./catalogue-reader";
import { type McpRegistration, REGISTER_RESOURCE_TOOL, registerRegistrationTool } from "./registration-tool";

/**
 * The catalogue as MCP tools for agents. Inputs are the REST API's own zod schemas (the same
 * parameter names, limits and messages); pages are smaller by default (a model's context is the
 * scarce resource) and `fields` trims each item to what the agent asks for.
 */

export const MCP_DEFAULT_LIMIT = 10;
export const MCP_MAX_LIMIT = 50;

const mcpPaging = {
  offset: integerParam(0, 1_000_000_000).default(0).meta({ description: "Items to skip (default 0)." }),
  limit: integerParam(1, MCP_MAX_LIMIT)
    .default(MCP_DEFAULT_LIMIT)
    .meta({ description: `Page size, 1 to ${MCP_MAX_LIMIT} (default ${MCP_DEFAULT_LIMIT}).` }),
};

function fieldsParam<const T extends readonly [string, ...string[]]>(names: T) {
  return z
    .array(z.enum(names))
    .min(1)
    .optional()
    .meta({ description: "Only these fields of each item (default: all). Keeps answers small." });
}

type Keys<T extends z.ZodObject> = [keyof T["shape"] & string, ...(keyof T["shape"] & string)[]];
const keysOf = <T extends z.ZodObject>(schema: T) => Object.keys(schema.shape) as Keys<T>;

const SERVICE_FIELDS = keysOf(serviceSchema);
const ENDPOINT_FIELDS = keysOf(endpointHitSchema);
const DETAIL_FIELDS = keysOf(serviceDetailSchema);

export const searchServicesInput = z
  .strictObject({ ...serviceFilterParams, ...mcpPaging, fields: fieldsParam(SERVICE_FIELDS) })
  .superRefine(relevanceNeedsQ);

export const searchEndpointsInput = z
  .strictObject({ ...endpointListQuery.shape, ...mcpPaging, fields: fieldsParam(ENDPOINT_FIELDS) })
  .superRefine(relevanceNeedsQ);

// Any id text, as REST's path: an id that names no service is "not found", not a bad argument.
const getServiceInput = z.strictObject({ ...serviceIdParams.shape, fields: fieldsParam(DETAIL_FIELDS) });

const historyInput = z
  .strictObject({ ...serviceIdParams.shape, ...historyQuery.shape, ...mcpPaging })
  .superRefine(fromBeforeTo);

const categoriesInput = z.strictObject({ ...mcpPaging });

/** A list whose items may be trimmed to some fields. */
const pageOf = (item: z.ZodObject) =>
  z.object({ items: z.array(item.partial()), has_more: z.boolean(), total: z.number().int() });

/** A searched list: as pageOf, plus how q was read (whenever q is given) and REST's empty-answer hint. */
const searchPageOf = (item: z.ZodObject) =>
  pageOf(item).extend({ query: queryReadingSchema.optional(), hint: emptyAnswerHintSchema.optional() });

function pick(item: JsonObject, fields: readonly string[] | undefined): JsonObject {
  if (fields === undefined) return item;
  return Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]]));
}

const trimmed = <L extends JsonList>(list: L, fields: readonly string[] | undefined): L => ({
  ...list,
  items: list.items.map((item) => pick(item, fields)),
});

/** Structured content for the output schema, and the same JSON as text for clients that read only text. */
function answer(value: JsonObject | SearchList): CallToolResult {
  const structured = value as unknown as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: structured };
}

function notFound(id: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `No service with id ${id}` }] };
}

export interface McpServerInfo {
  name: string;
  version: string;
}

export const MCP_SERVER_INFO: McpServerInfo = { name: "x402-catalogue", version: "0.1.0" };

/** What each tool is for: registered with the tools and listed in /llms.txt. */
export const MCP_TOOLS = {
  search_services: {
    title: "Search x402 services",
    description:
      `Find pay-per-call (x402) API services: full-text q plus filters (${serviceFilterNames().join(", ")}; ` +
      "prices in USDC as decimal strings), sorted and paged like GET /v1/services. With q, `query` says how " +
      "it was read: words corrected, words dropped, and whether the matches are partial.",
  },
  search_endpoints: {
    title: "Search x402 endpoints",
    description:
      `Find an endpoint that does X: q over what endpoints do, filters ${endpointFilterNames().join(", ")} ` +
      `(payable=true: a standard x402 client can pay it as published), sort by ${ENDPOINT_SORTS.join(", ")}. ` +
      "Each hit has its payment options, payability verdict with reasons, how to call it (call) " +
      "when published, its last probe and any price drift. With q, `query` says how it was read, as for " +
      "search_services.",
  },
  get_service: {
    title: "One x402 service",
    description:
      "A service by the id a search shows (an entry's id or any of its rows' ids): its endpoints with payment options, payability, call descriptions and our probe " +
      "results, its figures and its sources, and `observed`: what the chain shows its pay_tos were paid (raw and adjusted, " +
      "flags of self-dealing with their evidence, the claims beside it), like GET /v1/services/{id}.",
  },
  get_service_history: {
    title: "History of a service's figures",
    description:
      "A service's 30-day figures over time (from, to), oldest first, like GET /v1/services/{id}/history; " +
      "series=observed_daily: what the chain shows its pay_tos received per day, raw and adjusted.",
  },
  preflight_endpoint: {
    title: "Preflight an x402 endpoint",
    description:
      "Call an endpoint now (one unpaid request through our SSRF guard; catalogued or not) and judge it before " +
      "paying: its live 402 challenge, payment options, whether the official x402 client can pay it, the named " +
      "checks, grade, score and warnings, like POST /v1/preflight. Answers are reused for 60 s per URL.",
  },
  list_categories: {
    title: "Categories",
    description: "Every category with its number of listed services, like GET /v1/categories.",
  },
  register_resource: REGISTER_RESOURCE_TOOL,
} as const;

/** The preflight and registration tools' services and who calls them (their limits count per caller). */
export interface McpPreflight {
  preflight: Preflight;
  caller: string;
  registration: McpRegistration;
}

export function createCatalogueMcpServer(
  reader: CatalogueReader,
  info: McpServerInfo,
  live: McpPreflight,
): McpServer {
  const server = new McpServer(info);
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    "preflight_endpoint",
    {
      ...MCP_TOOLS.preflight_endpoint,
      inputSchema: preflightBody,
      // The shape without the component id, which the tool listing would emit as a bare reference.
      outputSchema: z.strictObject(preflightSchema.shape),
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (body) => {
      try {
        const result = await live.preflight.run(body, live.caller);
        return answer(preflightJson(body.url, body.method, result) as unknown as JsonObject);
      } catch (error) {
        if (!(error instanceof PreflightLimited)) throw error;
        return { isError: true, content: [{ type: "text", text: error.message }] };
      }
    },
  );

  registerRegistrationTool(server, live.registration);

  server.registerTool(
    "search_services",
    {
      ...MCP_TOOLS.search_services,
      inputSchema: searchServicesInput,
      outputSchema: searchPageOf(serviceSchema),
      annotations: readOnly,
    },
    async ({ fields, ...query }) => answer(trimmed(await reader.searchServices(query), fields)),
  );

  server.registerTool(
    "search_endpoints",
    {
      ...MCP_TOOLS.search_endpoints,
      inputSchema: searchEndpointsInput,
      outputSchema: searchPageOf(endpointHitSchema),
      annotations: readOnly,
    },
    async ({ fields, ...query }) => answer(trimmed(await reader.searchEndpoints(query), fields)),
  );

  server.registerTool(
    "get_service",
    {
      ...MCP_TOOLS.get_service,
      inputSchema: getServiceInput,
      outputSchema: serviceDetailSchema.partial(),
      annotations: readOnly,
    },
    async ({ id, fields }) => {
      const detail = await reader.getService(id);
      return detail === null ? notFound(id) : answer(pick(detail, fields));
    },
  );

  server.registerTool(
    "get_service_history",
    {
      ...MCP_TOOLS.get_service_history,
      inputSchema: historyInput,
      outputSchema: z.object({
        items: z.array(historyEntrySchema),
        has_more: z.boolean(),
        total: z.number().int(),
      }),
      annotations: readOnly,
    },
    async ({ id, ...query }) => {
      const history = await reader.getServiceHistory(id, query);
      return history === null ? notFound(id) : answer(history);
    },
  );

  server.registerTool(
    "list_categories",
    {
      ...MCP_TOOLS.list_categories,
      inputSchema: categoriesInput,
      outputSchema: pageOf(categoryCountSchema),
      annotations: readOnly,
    },
    async (paging) => answer(await reader.listCategories(paging)),
  );

  return server;
}
