import { z } from "zod";
import { isoTimestamp, listSchema, pagingParams } from "./common";

export const pagingQuery = z.strictObject({ ...pagingParams });

export const categoryCountSchema = z
  .strictObject({
    category: z.string().meta({ description: "A category as sources name it." }),
    service_count: z.number().int().meta({ description: "Listed services in it." }),
  })
  .meta({ id: "CategoryCount" });
export const categoryListSchema = listSchema(categoryCountSchema, "CategoryList");

export const tagCountSchema = z
  .strictObject({
    tag: z.string().meta({ description: "A tag, lower case." }),
    service_count: z.number().int().meta({ description: "Listed services with it." }),
  })
  .meta({ id: "TagCount" });
export const tagListSchema = listSchema(tagCountSchema, "TagList");

export const crawlErrorSchema = z
  .strictObject({
    kind: z
      .string()
      .meta({ description: "fetch, value, store, robots, or skipped (an origin without a manifest)." }),
    url: z.string().meta({ description: "The page concerned." }),
    status_code: z.number().int().nullable().meta({ description: "Its HTTP status, when one came." }),
    field: z.string().nullable().meta({ description: "The field whose value could not be read." }),
    raw_text: z.string().nullable().meta({ description: "The exact text that could not be read." }),
    message: z.string().meta({ description: "What went wrong." }),
    created_at: isoTimestamp,
  })
  .meta({ id: "CrawlError" });

export const crawlRunSchema = z
  .strictObject({
    id: z.guid().meta({ description: "The run's id." }),
    source_kind: z.string().meta({ description: "html_directory, bazaar, origin_manifest or registered." }),
    source_url: z.string().meta({ description: "The crawled source's base URL." }),
    status: z
      .enum(["running", "completed", "failed", "aborted"])
      .meta({ description: "completed: the run ended (listing_complete says whether all of it was read)." }),
    trigger: z.string().meta({ description: "schedule or manual (npm run crawl)." }),
    started_at: isoTimestamp,
    finished_at: isoTimestamp.nullable(),
    duration_ms: z.number().int().nullable().meta({ description: "Null while running." }),
    listing_complete: z
      .boolean()
      .meta({ description: "Every listing page was read; only such a run delists what it did not see." }),
    pages_fetched: z.number().int().meta({ description: "Pages downloaded and read." }),
    pages_failed: z.number().int().meta({ description: "Pages that could not be fetched." }),
    pages_unchanged: z
      .number()
      .int()
      .meta({ description: "Pages unchanged since the last crawl (304 or same bytes)." }),
    services_seen: z.number().int().meta({ description: "Services found in the listing." }),
    services_new: z.number().int().meta({ description: "Services never seen before." }),
    services_updated: z.number().int().meta({ description: "Services whose data changed." }),
    services_unchanged: z.number().int().meta({ description: "Services whose data did not change." }),
    services_delisted: z.number().int().meta({ description: "Services no longer listed." }),
    value_problems: z.number().int().meta({ description: "Values that could not be read (stored as null)." }),
    message: z.string().nullable().meta({ description: "Why the run failed or ended early." }),
    error_count: z.number().int().meta({ description: "All errors of the run." }),
    errors: z
      .array(crawlErrorSchema)
      .meta({ description: "The run's first 20 errors; error_count counts all." }),
  })
  .meta({ id: "CrawlRun" });
export const crawlRunListSchema = listSchema(crawlRunSchema, "CrawlRunList");
