import type { Router } from "express";
import type { ReadPool } from "../../db/read-pool";
import { getEvents } from "../../events/event-queries";
import { optionalRequestKey } from "../request-guard";
import { apiRouter } from "../router";
import { eventListQuery } from "../schemas/events";
import { parseInput } from "../validation";

/** GET /v1/events: catalogue events for anyone; a key adds its organisation's own events. */
export function eventsRouter(pool: ReadPool): Router {
  const router = apiRouter();
  router.get("/v1/events", async (req, res) => {
    const query = parseInput(eventListQuery, req.query, "query");
    const key = optionalRequestKey(res);
    const page = await getEvents(pool, {
      after: query.after,
      types: query.types,
      serviceId: query.service_id,
      limit: query.limit,
      owner: key ? { organisationId: key.organisationId, environment: key.environment } : undefined,
    });
    res.set("Cache-Control", "no-store").json(page);
  });
  return router;
}
