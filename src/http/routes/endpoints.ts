import type { Router } from "express";
import { type CatalogueSearch, endpointFilters } from "../../search/catalogue-search";
import { emptyAnswerHint, sendListing } from "../catalogue-listing";
import { methodNotAllowed } from "../responses";
import { apiRouter } from "../router";
import { endpointListQuery } from "../schemas/endpoints";
import { parseQuery } from "../validation";

/** Endpoint-level search: "find an endpoint that does X". */
export function endpointsRouter(search: CatalogueSearch): Router {
  const router = apiRouter();
  router
    .route("/v1/endpoints")
    .get(async (req, res) => {
      const query = parseQuery(endpointListQuery, req);
      const paging = { offset: query.offset, limit: query.limit };
      const filters = endpointFilters(query);
      const { snapshot, listing, reading } = await search.findEndpoints(filters, query.sort, paging);
      sendListing(res, snapshot, listing, paging, reading, emptyAnswerHint(filters, listing.total));
    })
    .all(methodNotAllowed);
  return router;
}
