import type { Router } from "express";
import type { z } from "zod";
import type { CatalogueSearch, EndpointFilters } from "../../search/catalogue-search";
import { emptyAnswerHint, sendListing } from "../catalogue-listing";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { endpointListQuery } from "../schemas/endpoints";
import { parseInput } from "../validation";

type EndpointQuery = z.output<typeof endpointListQuery>;

/** The endpoint search's filters from its query parameters (REST and MCP share them). */
export function endpointFilters(query: EndpointQuery): EndpointFilters {
  return {
    q: query.q,
    method: query.method,
    category: query.category,
    maxPrice: query.max_price,
    includeUnpriced: query.include_unpriced,
    network: query.network,
    verified: query.verified,
    drift: query.drift,
    payable: query.payable,
  };
}

/** Endpoint-level search: "find an endpoint that does X". */
export function endpointsRouter(search: CatalogueSearch): Router {
  const router = apiRouter();
  router
    .route("/v1/endpoints")
    .get(async (req, res) => {
      const query = parseInput(endpointListQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const filters = endpointFilters(query);
      const { snapshot, listing, reading } = await search.findEndpoints(filters, query.sort, paging);
      sendListing(res, snapshot, listing, paging, reading, emptyAnswerHint(filters, listing.total));
    })
    .all(methodNotAllowed);
  return router;
}
