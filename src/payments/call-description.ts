/**
 * How to call a paid endpoint, as its seller published it: the input (method, query parameters,
 * body type and fields, headers) and output (type, format, example, schema) an agent needs before
 * paying. Read from x402 v2's bazaar extension (`extensions.bazaar.info` with its JSON Schema and
 * `routeTemplate`), from v1's `accepts[].outputSchema`, or from a feed's `metadata.input/output`.
 * Kept as published (JSON objects, never rewritten or guessed); absent stays null.
 */
export interface CallDescription {
  /** Where it was read: a field path of the item or challenge. */
  format: "bazaar_extension" | "v1_output_schema" | "metadata" | "mcp_tool";
  input: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
  /** JSON Schema of the extension's info (bazaar extension only). */
  input_schema: Record<string, unknown> | null;
  /** e.g. "/weather/:city": the route the resource URL was made from (bazaar extension only). */
  route_template: string | null;
}

/** Larger descriptions are dropped with a warning: they would bloat every endpoint search answer. */
export const MAX_CALL_DESCRIPTION_BYTES = 16 * 1024;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const record = (value: unknown): Json | null => (isRecord(value) ? value : null);

function fromBazaarExtension(extensions: unknown): CallDescription | null {
  const bazaar = record(record(extensions)?.bazaar);
  if (bazaar === null) return null;
  const info = record(bazaar.info);
  const route = bazaar.routeTemplate ?? info?.routeTemplate;
  const described: CallDescription = {
    format: "bazaar_extension",
    input: record(info?.input),
    output: record(info?.output),
    input_schema: record(bazaar.schema),
    route_template: typeof route === "string" && route.trim() !== "" ? route.trim() : null,
  };
  return (described.input ?? described.output ?? described.input_schema ?? described.route_template)
    ? described
    : null;
}

function fromOutputSchema(accepts: unknown): CallDescription | null {
  if (!Array.isArray(accepts)) return null;
  for (const entry of accepts) {
    const schema = record(record(entry)?.outputSchema);
    const input = record(schema?.input);
    const output = record(schema?.output);
    if (input !== null || output !== null) {
      return { format: "v1_output_schema", input, output, input_schema: null, route_template: null };
    }
  }
  return null;
}

function fromMetadata(metadata: unknown): CallDescription | null {
  const input = record(record(metadata)?.input);
  const output = record(record(metadata)?.output);
  if (input === null && output === null) return null;
  return { format: "metadata", input, output, input_schema: null, route_template: null };
}

export interface CallSources {
  /** The item's or challenge's `extensions` (v2). */
  extensions?: unknown;
  /** Its `accepts` array (v1 entries carry `outputSchema`). */
  accepts?: unknown;
  /** A feed item's `metadata`. */
  metadata?: unknown;
}

/**
 * The first published description, in order of precedence: the v2 extension (the standard and
 * the richest), then v1's outputSchema, then free-form metadata. Null when none is published or it
 * is larger than MAX_CALL_DESCRIPTION_BYTES (then a warning says so).
 */
export function readCallDescription(sources: CallSources, warnings: string[]): CallDescription | null {
  const found =
    fromBazaarExtension(sources.extensions) ??
    fromOutputSchema(sources.accepts) ??
    fromMetadata(sources.metadata);
  if (found === null) return null;
  const bytes = Buffer.byteLength(JSON.stringify(found));
  if (bytes > MAX_CALL_DESCRIPTION_BYTES) {
    warnings.push(
      `call description (${found.format}) is ${bytes} bytes, over ${MAX_CALL_DESCRIPTION_BYTES}; not kept`,
    );
    return null;
  }
  return found;
}

/** A call description with where it came from. */
export type PublishedCall = CallDescription & { source: "live_challenge" | "listing" };

/** The endpoint's own challenge describes it as it is now; a listing's copy may be stale. */
export function chooseCall(
  listing: CallDescription | null,
  live: CallDescription | null,
): PublishedCall | null {
  if (live !== null) return { source: "live_challenge", ...live };
  if (listing !== null) return { source: "listing", ...listing };
  return null;
}
