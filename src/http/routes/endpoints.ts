import { Router } from "express";
import { type CatalogueSearch, endpointFilters } from "../../search/catalogue-search";
import { sendListing } from "../catalogue-listing";
import { methodNotAllowed } from "../responses";
import { endpointListQuery } from "../schemas/endpoints";
import { parseInput } from "../validation";

/** Endpoint-level search: "find an endpoint that does X". */
export function endpointsRouter(search: CatalogueSearch): Router {
  const router = Router();
  router
    .route("/v1/endpoints")
    .get(async (req, res) => {
      const query = parseInput(endpointListQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const { snapshot, listing, reading } = await search.findEndpoints(
        endpointFilters(query),
        query.sort,
        paging,
      );
      sendListing(res, snapshot, listing, paging, reading);
    })
    .all(methodNotAllowed);
  return router;
}
