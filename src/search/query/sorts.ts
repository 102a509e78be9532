import type { z } from "zod";
import { describedSorts, SERVICE_SORTS, sortsOrdered } from "../../catalogue/service-queries";
import { enumParam } from "../../http/schemas/common";

/**
 * The sorts of the service and endpoint searches, declared once, like the filters (filters.ts):
 * the REST list schemas, the CSV export, the MCP tools, OpenAPI and llms.txt read these. A service
 * sort is an entry of SORT_KEYS (catalogue/service-queries.ts), ranked by Postgres when the
 * catalogue loads. An endpoint sort is an entry of ENDPOINT_SORT_KEYS below and its order in
 * ENDPOINT_ORDERS (tables/endpoint-orders.ts), typed by these keys, so a sort declared here
 * without its order does not compile.
 */

/** "a, b and c". */
const listed = (words: readonly string[]) =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

/** The sort parameters of the services search: the allow-list and each sort's default direction. */
export const serviceSortParams = {
  sort: enumParam(SERVICE_SORTS)
    .optional()
    .meta({
      description: `${describedSorts().join(", ")}. Missing values sort last; ties are broken by id.`,
    }),
  order: enumParam(["asc", "desc"])
    .optional()
    .meta({ description: `Default: asc for ${listed(sortsOrdered("asc"))}, desc for the others.` }),
};

/** The endpoint sorts: what the API says of each. Relevance ranks by q; the others by a column. */
const ENDPOINT_SORT_KEYS = {
  relevance: "default with q; needs q",
  price: "the endpoint's lowest price per call, cheapest first, unpriced last",
  score: "the trust score 0–100, highest first, unscored last",
  observed_volume:
    "what the chain shows its pay_tos received over 30 days, largest first, endpoints no chain reads last",
  adjusted_volume: "the same without flagged transfers",
} as const;

export type EndpointSort = keyof typeof ENDPOINT_SORT_KEYS;
/** The endpoint sorts ordered by a column rather than by q. */
export type EndpointColumnSort = Exclude<EndpointSort, "relevance">;
export const ENDPOINT_SORTS = Object.keys(ENDPOINT_SORT_KEYS) as [EndpointSort, ...EndpointSort[]];

export const endpointSortParams = {
  sort: enumParam(ENDPOINT_SORTS)
    .optional()
    .meta({
      description:
        `${Object.entries(ENDPOINT_SORT_KEYS)
          .map(([sort, about]) => `${sort} (${about})`)
          .join(", ")}. ` +
        "Ties in the default order. Without q and sort: the busiest services' endpoints first.",
    }),
};

/** `sort=relevance` ranks by q: without q it is refused rather than silently meaning id order. */
export function relevanceNeedsQ(
  query: { q?: string | undefined; sort?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (query.sort === "relevance" && query.q === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["sort"],
      message: "relevance needs q; without q use another sort",
    });
  }
}
