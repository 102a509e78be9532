import { z } from "zod";

/** GET /: where to go from here, for a person or an agent that found the bare host. */
export const rootSchema = z
  .strictObject({
    name: z.string().meta({ description: "This product." }),
    description: z.string().meta({ description: "What it serves." }),
    links: z
      .strictObject({
        docs: z.string().meta({ description: "The API reference for people (HTML)." }),
        openapi: z.string().meta({ description: "The OpenAPI 3.1 document, for tools." }),
        services: z.string().meta({ description: "Search and filter services." }),
        endpoints: z.string().meta({ description: "Search endpoints." }),
        health: z.string().meta({ description: "Liveness and database check." }),
      })
      .meta({ description: "Paths relative to this host." }),
  })
  .meta({ id: "Root" });

const lastCrawlSchema = z
  .strictObject({
    id: z.string().meta({ description: "Crawl run id (see /v1/crawls)." }),
    source_url: z.string().meta({ description: "The crawled source's base URL." }),
    status: z.string().meta({ description: "running, completed, partial, failed or aborted." }),
    started_at: z.string().meta({ description: "ISO 8601." }),
    finished_at: z.string().nullable().meta({ description: "ISO 8601; null while running." }),
  })
  .nullable()
  .meta({ description: "The most recent crawl run of any source; null before the first." });

export const healthSchema = z
  .strictObject({
    status: z.enum(["ok", "unavailable"]).meta({ description: "ok when the database answered within 2 s." }),
    database: z.enum(["up", "down"]).meta({ description: "Whether the database answered." }),
    last_crawl: lastCrawlSchema,
    message: z.string().optional().meta({ description: "Why the database is down (503 only)." }),
  })
  .meta({ id: "Health" });

export const readinessSchema = z
  .strictObject({
    status: z.literal("ready").meta({ description: "The catalogue is loaded and the database answers." }),
  })
  .meta({ id: "Readiness" });

export const ROOT_LINKS = {
  docs: "/docs",
  openapi: "/openapi.json",
  services: "/v1/services",
  endpoints: "/v1/endpoints",
  health: "/healthz",
} as const;
