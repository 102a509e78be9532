import { z } from "zod";
import { isoTimestamp, listSchema, pagingParams } from "./common";

export const pagingQuery = z.strictObject({ ...pagingParams });

export const categoryCountSchema = z
  .strictObject({ category: z.string(), service_count: z.number().int() })
  .meta({ id: "CategoryCount" });
export const categoryListSchema = listSchema(categoryCountSchema, "CategoryList");

export const tagCountSchema = z
  .strictObject({ tag: z.string(), service_count: z.number().int() })
  .meta({ id: "TagCount" });
export const tagListSchema = listSchema(tagCountSchema, "TagList");

export const crawlErrorSchema = z
  .strictObject({
    kind: z.string().meta({ description: "fetch, value, store or robots." }),
    url: z.string(),
    status_code: z.number().int().nullable(),
    field: z.string().nullable(),
    raw_text: z.string().nullable(),
    message: z.string(),
    created_at: isoTimestamp,
  })
  .meta({ id: "CrawlError" });

export const crawlRunSchema = z
  .strictObject({
    id: z.guid(),
    source_kind: z.string(),
    source_url: z.string(),
    status: z.enum(["running", "completed", "failed", "aborted"]),
    trigger: z.string(),
    started_at: isoTimestamp,
    finished_at: isoTimestamp.nullable(),
    duration_ms: z.number().int().nullable(),
    listing_complete: z.boolean(),
    pages_fetched: z.number().int(),
    pages_failed: z.number().int(),
    pages_unchanged: z.number().int(),
    services_seen: z.number().int(),
    services_new: z.number().int(),
    services_updated: z.number().int(),
    services_unchanged: z.number().int(),
    services_delisted: z.number().int(),
    value_problems: z.number().int(),
    message: z.string().nullable(),
    error_count: z.number().int(),
    errors: z
      .array(crawlErrorSchema)
      .meta({ description: "The run's first 20 errors; error_count counts all." }),
  })
  .meta({ id: "CrawlRun" });
export const crawlRunListSchema = listSchema(crawlRunSchema, "CrawlRunList");
