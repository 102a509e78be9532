import { Router } from "express";
import type { CatalogueIndexStore } from "../../search/catalogue-index-store";
import type { SearchQueries } from "../../search/search-queries";
import { sendListing } from "../catalogue-listing";
import { methodNotAllowed } from "../responses";
import { endpointListQuery } from "../schemas/endpoints";
import { parseInput } from "../validation";

/** Endpoint-level search: "find an endpoint that does X". */
export function endpointsRouter(catalogue: CatalogueIndexStore, searches: SearchQueries): Router {
  const router = Router();
  router
    .route("/v1/endpoints")
    .get(async (req, res) => {
      const query = parseInput(endpointListQuery, req.query, "query");
      const paging = { offset: query.offset, limit: query.limit };
      const filters = {
        q: query.q,
        method: query.method,
        category: query.category,
        maxPrice: query.max_price,
        includeUnpriced: query.include_unpriced,
        network: query.network,
        verified: query.verified,
        drift: query.drift,
      };
      const index = await catalogue.current();
      const now = Date.now();
      const { answer, reading } = await searches.search(query.q, index.endpoints.text, (text) =>
        index.endpoints.list(filters, query.sort, paging, text, now),
      );
      sendListing(res, index.snapshot, answer, paging, reading);
    })
    .all(methodNotAllowed);
  return router;
}
