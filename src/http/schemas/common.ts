import { z } from "zod";
import { TRANSPORTS } from "../../mcp-tools/tool-url";

/**
 * Building blocks of the query schemas. Query values arrive as text (an array when repeated).
 * Numbers are converted only when the whole text is a plain decimal number, so "", "12abc",
 * "0x10" or "1e3" are refused instead of silently meaning 0, 16 or 1000. Every message says
 * what is allowed; validation.ts prefixes the parameter's name.
 */

const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function numberFromText(value: unknown): unknown {
  return typeof value === "string" && PLAIN_NUMBER.test(value.trim()) ? Number(value) : value;
}

export function integerParam(min: number, max: number) {
  const allowed = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(
    numberFromText,
    z.number({ error: allowed }).int(allowed).min(min, allowed).max(max, allowed),
  );
}

export function numberParam(min: number, max: number) {
  const allowed = `must be a number from ${min} to ${max}`;
  return z.preprocess(numberFromText, z.number({ error: allowed }).min(min, allowed).max(max, allowed));
}

/** Free text given once: trimmed, non-empty, bounded, and without NUL (Postgres refuses it). */
export function textParam(maxLength: number) {
  return z
    .string({ error: "must be given once, as text" })
    .trim()
    .min(1, "must not be empty")
    .max(maxLength, `must be at most ${maxLength} characters`)
    .refine((text) => !text.includes("\u0000"), "must not contain NUL characters");
}

export function enumParam<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

/** A date-time with offset, or a date meaning its midnight UTC. */
export const dateTimeParam = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: "must be an ISO 8601 date or date-time, such as 2026-01-31 or 2026-01-31T12:00:00Z",
  })
  .transform((text) => new Date(text));

/** USDC amounts are compared as decimals in SQL, never as floats: validated as decimal text. */
export const decimalParam = z
  .string({ error: "must be given once, as a decimal number" })
  .regex(/^\d{1,32}(?:\.\d{1,6})?$/, "must be a decimal number such as 1000 or 0.5 (at most 6 decimals)");

/** Repeatable: `?tag=a&tag=b` arrives as an array, `?tag=a` as text; both become an array. */
export function repeatableParam<T extends string>(item: z.ZodType<T>, maxCount: number) {
  return z.preprocess(
    (value) => (typeof value === "string" ? [value] : value),
    z
      .array(item, { error: "must be text (repeat the parameter for more values)" })
      .max(maxCount, `may be given at most ${maxCount} times`),
  );
}

/** Answers that take no query parameter still refuse unknown ones. */
export const noQuery = z.strictObject({});

export const serviceIdParam = z.guid({ error: "must be a service id (a UUID)" });

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** The paging parameters of every list, as the merchant API has them. */
export const pagingParams = {
  offset: integerParam(0, 1_000_000_000).default(0).meta({ description: "Items to skip (default 0)." }),
  limit: integerParam(1, MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .meta({ description: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
};

/** The most rows one services.csv may be asked for with `limit`. */
export const MAX_EXPORT_LIMIT = 1_000_000;

/** Paging of an export: the list's parameters, but without `limit` every row comes. */
export const exportPagingParams = {
  offset: pagingParams.offset,
  limit: integerParam(1, MAX_EXPORT_LIMIT)
    .optional()
    .meta({ description: `Most rows, 1 to ${MAX_EXPORT_LIMIT} (default: every matching row).` }),
};

export const errorBodySchema = z
  .strictObject({
    statusCode: z.number().int().meta({ description: "The HTTP status.", example: 400 }),
    message: z.string().meta({
      description: "What was wrong: the parameter and what is allowed.",
      example: 'limit: must be a whole number from 1 to 200 (got "500")',
    }),
    error: z.string().meta({ description: "The status's name.", example: "Bad Request" }),
  })
  .meta({ id: "Error", description: "The one error body of the API." });

/** `{ items, has_more, total }`, the list answer of the merchant API plus the total. */
export function listSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .strictObject({
      items: z.array(item).meta({ description: "This page's items." }),
      has_more: z.boolean().meta({ description: "True when items exist after this page." }),
      total: z.number().int().meta({ description: "Items matching, over all pages." }),
    })
    .meta({ id });
}

/** How a search read its `q`: present on every answer to a request with `q`. */
export const queryReadingSchema = z
  .strictObject({
    corrected: z
      .array(
        z.strictObject({
          word: z.string().meta({ description: "The word as typed." }),
          to: z.array(z.string()).meta({ description: "The known words searched in its place." }),
        }),
      )
      .meta({
        description: "Words unknown to the catalogue, each searched as the known words nearest to it.",
      }),
    dropped: z.array(z.string()).meta({
      description: "Words left out: no entry has them (even corrected) together with the others kept.",
    }),
    partial: z.boolean().meta({
      description:
        "True when no entry has every word kept: each result then has as many of them as any entry has (most words matched first, then the sort).",
    }),
  })
  .meta({ id: "QueryReading" });

/** On an empty answer whose filters hide entries: what shows them. */
export const emptyAnswerHintSchema = z.string().meta({
  description:
    "Present only on an empty answer that a filter's default emptied: says which parameter shows the hidden " +
    "entries (max_price hides entries with no known price unless include_unpriced=true).",
  example: "max_price hides entries with no known price: add include_unpriced=true to see them",
});

/** A list that a `q` searches: the list answer plus how `q` was read, and a hint when it is empty. */
export function searchListSchema<T extends z.ZodType>(item: T, id: string) {
  return listSchema(item, id)
    .extend({ query: queryReadingSchema.optional(), hint: emptyAnswerHintSchema.optional() })
    .meta({ id });
}

export const isoTimestamp = z.iso.datetime().meta({ description: "ISO 8601, UTC." });
export const decimalString = z
  .string()
  .regex(/^\d+(?:\.\d+)?$/)
  .meta({ description: "Exact decimal amount as a string.", example: "1250.5" });

/** An endpoint's method and transport, as every endpoint shape shows them. */
export const endpointCallFields = {
  method: z.string().meta({
    description: "HTTP method (GET, POST…), or MCP for a paid tool of an MCP server (transport mcp).",
  }),
  transport: z.enum(TRANSPORTS).meta({
    description:
      "http, or mcp: a tool of an MCP server, called with tools/call at the URL (the server's URL; the " +
      "fragment names the tool and never reaches the server).",
  }),
};
