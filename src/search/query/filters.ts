import { z } from "zod";
import {
  dateTimeParam,
  decimalParam,
  enumParam,
  integerParam,
  numberParam,
  repeatableParam,
  textParam,
} from "../../http/schemas/common";
import { TRANSPORTS } from "../../mcp-tools/tool-url";
import { HTTP_METHODS } from "../../normalise/text";
import { booleanParam, type FilterEntry, filter } from "./filter-entry";
import { activityFilters, trustFilters } from "./shared-filters";

export { SHOWN_HEALTH } from "./shared-filters";

/**
 * The filters of the service and endpoint searches, declared once. Each entry names its query
 * parameter, its zod schema (with the description OpenAPI, /docs and llms.txt show) and the field
 * of the search's filters it sets; the REST list schemas, the CSV export, the MCP tools and the
 * request readers below are all made from these registries. The check that answers a field lives
 * beside the columns it reads (tables/service-table.ts and service-columns.ts for services,
 * endpoint-checks.ts for endpoints), in a record typed by these fields, so a filter declared here
 * without its check does not compile.
 */

type Registry = Record<string, FilterEntry>;

/** The filters a registry declares, by field: optional unless the parameter has a default. */
type FiltersOf<R extends Registry> = {
  [P in keyof R as undefined extends z.output<R[P]["param"]> ? R[P]["field"] : never]?: Exclude<
    z.output<R[P]["param"]>,
    undefined
  >;
} & {
  [P in keyof R as undefined extends z.output<R[P]["param"]> ? never : R[P]["field"]]: z.output<
    R[P]["param"]
  >;
};

/** The query parameters of a registry, for a zod object (strictObject({ ...paramsOf(R) })). */
export function paramsOf<R extends Registry>(registry: R): { [P in keyof R]: R[P]["param"] } {
  return Object.fromEntries(Object.entries(registry).map(([name, entry]) => [name, entry.param])) as {
    [P in keyof R]: R[P]["param"];
  };
}

/** A validated query (parameter names) to the search's filters (field names). */
function readerOf<R extends Registry>(registry: R) {
  return (query: { [P in keyof R]?: z.output<R[P]["param"]> }): FiltersOf<R> => {
    const filters: Record<string, unknown> = {};
    for (const [name, { field }] of Object.entries(registry)) {
      const value = query[name];
      if (value !== undefined) filters[field] = value;
    }
    return filters as FiltersOf<R>;
  };
}

/** Any case in, upper case out, as methods are stored. */
const methodParam = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toUpperCase() : value),
  enumParam(HTTP_METHODS),
);

const MAX_COUNT = 2_147_483_647;

const SOURCE_KINDS = ["html_directory", "bazaar", "origin_manifest", "registered"];

/** A source kind, or a base URL as the sources table stores it. */
const sourceParam = textParam(2000).refine(
  (text) => SOURCE_KINDS.includes(text) || /^https?:\/\/[^\s]+$/i.test(text),
  "must be html_directory, bazaar, origin_manifest, registered or a source's base URL (http:// or https://)",
);

const networkParam = textParam(100);

/** How an endpoint is called: over HTTP, or as a tool of an MCP server (src/mcp-tools). */
function transportFilter(of: string) {
  return filter(
    "transport",
    enumParam(TRANSPORTS)
      .optional()
      .meta({
        description:
          `Only ${of} called this way: http (an HTTP method on a URL) or mcp (a paid tool of an MCP server, ` +
          "method MCP, its URL the server's with the tool's name as fragment).",
        example: "mcp",
      }),
  );
}

export const SERVICE_FILTERS = {
  q: filter(
    "q",
    textParam(200)
      .optional()
      .meta({
        description:
          "Full-text search over name, domain, description, category, tags and endpoint descriptions " +
          '(web-search syntax: "phrase", or, -word). Stemmed; when no service has all the words, misspelt ' +
          "words are corrected by edit distance, words nothing has are dropped, and the services with the most " +
          "words come first (partial matches); the answer's `query` says how q was read.",
        example: "stock quotes",
      }),
  ),
  category: filter("category", textParam(200).optional().meta({ description: "Exact category, any case." })),
  tag: filter(
    "tags",
    repeatableParam(textParam(100).toLowerCase(), 10)
      .optional()
      .meta({ description: "Tag; repeat for more: every tag given must be present." }),
  ),
  method: filter(
    "method",
    methodParam.optional().meta({ description: "Some endpoint has this HTTP method." }),
  ),
  transport: transportFilter("services with some endpoint"),
  domain: filter(
    "domain",
    textParam(253).toLowerCase().optional().meta({ description: "Exact host name, e.g. api.example.com." }),
  ),
  min_uptime: filter(
    "minUptime",
    numberParam(0, 100).optional().meta({ description: "Lowest 30-day uptime, in percent." }),
  ),
  max_response_ms: filter(
    "maxResponseMs",
    numberParam(0, 3_600_000)
      .optional()
      .meta({ description: "Highest 30-day average response time, in ms." }),
  ),
  min_volume: filter(
    "minVolume",
    decimalParam.optional().meta({ description: "Lowest 30-day volume in USDC, a decimal string." }),
  ),
  min_tx: filter(
    "minTx",
    integerParam(0, MAX_COUNT).optional().meta({ description: "Lowest 30-day transaction count." }),
  ),
  min_payers: filter(
    "minPayers",
    integerParam(0, MAX_COUNT).optional().meta({ description: "Lowest 30-day payer count." }),
  ),
  updated_since: filter(
    "updatedSince",
    dateTimeParam.optional().meta({
      description: "Services whose information was updated at or after this time (info_updated_at).",
    }),
  ),
  network: filter(
    "network",
    networkParam.optional().meta({
      description: "Some payment option is on this network: a CAIP-2 id or a network name, any case.",
      example: "eip155:8453",
    }),
  ),
  asset: filter(
    "asset",
    textParam(100).optional().meta({
      description: "Some payment option is in this asset: a token address or symbol, any case.",
      example: "USDC",
    }),
  ),
  max_price: filter(
    "maxPrice",
    decimalParam.optional().meta({
      description:
        "Some payment option costs at most this many USDC per call, a decimal string. Entries with no known " +
        "price (no option states one: an HTML directory's services until a probe reads their challenge) do " +
        "not match unless include_unpriced=true.",
      example: "0.01",
    }),
  ),
  include_unpriced: filter(
    "includeUnpriced",
    booleanParam.optional().meta({
      description:
        "true: max_price also keeps entries with no known price (false, the default: it drops them).",
    }),
  ),
  pay_to: filter(
    "payTo",
    textParam(200).optional().meta({ description: "Some payment option pays this address, any case." }),
  ),
  source: filter(
    "source",
    sourceParam.optional().meta({
      description:
        "Listed by this source: a kind (html_directory, bazaar, origin_manifest, registered) or a source's base URL.",
    }),
  ),
  verified: filter(
    "verified",
    booleanParam.optional().meta({
      description:
        "true: some endpoint answered with a valid x402 payment challenge within the last 24 hours; false: none did.",
    }),
  ),
  drift: filter(
    "drift",
    booleanParam.optional().meta({
      description:
        "true: some endpoint's latest live challenge differed from what the listing claims (see the endpoints' " +
        "drift); false: none did.",
    }),
  ),
  owner_verified: filter(
    "ownerVerified",
    booleanParam.optional().meta({
      description:
        "true: the owner of an origin of its endpoints proved it (a pay_to's signature or the origin's token file; " +
        'docs/api.md "Ownership"); false: nobody did.',
    }),
  ),
  status: filter(
    "status",
    enumParam(["listed", "delisted", "all"])
      .default("listed")
      .meta({ description: "listed (default), delisted or all." }),
  ),
  ...trustFilters("services"),
  ...activityFilters("services"),
};

export const ENDPOINT_FILTERS = {
  q: filter(
    "q",
    textParam(200)
      .optional()
      .meta({
        description:
          "What the endpoint does: searched in its description, URL path, method and its service's name and " +
          "category (stemmed; typos corrected and partial matches when nothing has all the words, as on " +
          "/v1/services; the answer's `query` says how q was read).",
        example: "weather forecast",
      }),
  ),
  method: filter("method", methodParam.optional().meta({ description: "HTTP method." })),
  transport: transportFilter("endpoints"),
  category: filter(
    "category",
    textParam(200).optional().meta({ description: "The service's category, any case." }),
  ),
  max_price: filter(
    "maxPrice",
    decimalParam.optional().meta({
      description:
        "Some payment option of the endpoint costs at most this many USDC per call. Endpoints with no known price " +
        "do not match unless include_unpriced=true.",
      example: "0.01",
    }),
  ),
  include_unpriced: filter(
    "includeUnpriced",
    booleanParam
      .optional()
      .meta({ description: "true: max_price also keeps endpoints with no known price." }),
  ),
  network: filter(
    "network",
    networkParam.optional().meta({
      description: "Some payment option is on this network: a CAIP-2 id or a network name, any case.",
    }),
  ),
  verified: filter(
    "verified",
    booleanParam.optional().meta({
      description: "true: a valid x402 challenge within the last 24 hours; false: none.",
    }),
  ),
  drift: filter(
    "drift",
    booleanParam.optional().meta({
      description:
        "true: the latest live challenge differed from what the listing claims (see drift); false: it did not.",
    }),
  ),
  payable: filter(
    "payable",
    booleanParam
      .optional()
      .meta({ description: "Only endpoints a standard x402 client can (true) or cannot (false) pay." }),
  ),
  callable: filter(
    "callable",
    booleanParam.optional().meta({
      description:
        "true: its seller published how to call it (the hit's `call`: input, output, schema); false: nobody did.",
    }),
  ),
  ...trustFilters("endpoints"),
  ...activityFilters("endpoints"),
};

export type ServiceFilters = FiltersOf<typeof SERVICE_FILTERS>;
export type EndpointFilters = FiltersOf<typeof ENDPOINT_FILTERS>;
export type ServiceStatusFilter = ServiceFilters["status"];

/** The service search's filters from a validated query (REST, CSV and MCP share it). */
export const serviceFilters = readerOf(SERVICE_FILTERS);

/** The endpoint search's filters from a validated query (REST and MCP share it). */
export const endpointFilters = readerOf(ENDPOINT_FILTERS);

/** The filter parameters' names, for texts that list them (the MCP tools' descriptions). */
export const serviceFilterNames = (): string[] => Object.keys(SERVICE_FILTERS).filter((name) => name !== "q");
export const endpointFilterNames = (): string[] =>
  Object.keys(ENDPOINT_FILTERS).filter((name) => name !== "q");
