import type { openApiDocument } from "./document";

/**
 * What /docs and /llms.txt both say about an operation beyond its parameters: who may call it
 * (from its security requirements) and what a request body looks like (an example built from
 * the body's own JSON Schema, so it follows the zod schema that validates the request).
 */

export type Document = ReturnType<typeof openApiDocument>;
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonSchema = { [key: string]: Json };

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export interface OperationEntry {
  method: (typeof METHODS)[number];
  path: string;
  operation: NonNullable<NonNullable<Document["paths"]>[string]["get"]>;
}

export function operationsOf(document: Document): OperationEntry[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}

export const asSchema = (value: Json | undefined): JsonSchema | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? value : undefined;

/** Who may call an operation: "Public…" when a call without a key is allowed, else the key and scope needed. */
export function accessNote(security: Array<Record<string, string[]>> | undefined): string {
  const keyed = security?.find((requirement) => Object.keys(requirement).length > 0);
  if (!keyed) return "Public: no key needed.";
  const scopes = Object.values(keyed).flat();
  const scope = scopes.length > 0 ? ` with the scope ${scopes.join(", ")}` : "";
  return security?.some((requirement) => Object.keys(requirement).length === 0)
    ? `Public; a key sent must be valid${scope}.`
    : `Needs an API key${scope}.`;
}

/** The JSON body schema of an operation, with a component reference resolved; undefined without a body. */
export function requestBodySchema(document: Document, entry: OperationEntry): JsonSchema | undefined {
  const body = entry.operation.requestBody;
  if (!body || "$ref" in body) return undefined;
  const schema = asSchema(body.content?.["application/json"]?.schema as Json | undefined);
  const ref = typeof schema?.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
  if (!ref) return schema;
  return asSchema((document.components?.schemas as { [name: string]: Json } | undefined)?.[ref]);
}

/**
 * A value of `schema` for an example: its own example or default, else the first allowed value, else a
 * placeholder naming the field.
 */
export function exampleValue(schema: JsonSchema, name: string): Json {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] ?? null;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] ?? null;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf.map(asSchema) : [];
  const branch = branches.find((candidate) => candidate && candidate.type !== "null");
  if (branch) return exampleValue(branch, name);
  const items = asSchema(schema.items);
  if (schema.type === "array") return items ? [exampleValue(items, name)] : [];
  if (schema.type === "object") {
    // The required properties, or every property when none is required (an update).
    const required = Array.isArray(schema.required) ? schema.required : [];
    const properties = Object.entries(asSchema(schema.properties) ?? {}).filter(
      ([key]) => required.length === 0 || required.includes(key),
    );
    return Object.fromEntries(
      properties.map(([key, value]) => [key, exampleValue(asSchema(value) ?? {}, key)]),
    );
  }
  if (schema.type === "boolean") return false;
  if (schema.type === "integer" || schema.type === "number") return Number(schema.minimum ?? 1);
  if (schema.format === "date-time") return "2026-12-31T00:00:00.000Z";
  return `<${name}>`;
}

/** The example body as one line of JSON, or undefined when the operation takes no body. */
export function exampleBody(document: Document, entry: OperationEntry): string | undefined {
  const schema = requestBodySchema(document, entry);
  return schema ? JSON.stringify(exampleValue(schema, "value")) : undefined;
}
