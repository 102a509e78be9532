/**
 * Arguments for an unpaid `tools/call`. A server built on the MCP SDK checks the arguments against
 * the tool's input schema before the tool runs, so a call with no arguments to a tool with required
 * ones is refused as invalid before the payment wrapper can ask for payment. Each required property
 * gets the plainest value its schema allows (its const, default, first enum value or example, else
 * an empty value of its type). Pure.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const EMPTY_OF_TYPE: Record<string, unknown> = {
  string: "",
  number: 0,
  integer: 0,
  boolean: false,
  array: [],
  object: {},
  null: null,
};

/** The plainest value a property schema allows; nested objects get their own required properties. */
function plainValue(schema: unknown, depth: number): unknown {
  if (!isRecord(schema)) return "";
  if ("const" in schema) return schema.const;
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" && depth < 4) return requiredArguments(schema, depth + 1);
  if (type === "number" || type === "integer") {
    return typeof schema.minimum === "number" ? schema.minimum : 0;
  }
  if (typeof type === "string" && type in EMPTY_OF_TYPE) return EMPTY_OF_TYPE[type];
  const [first] = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : [];
  return first === undefined ? "" : plainValue(first, depth);
}

function requiredArguments(schema: Json, depth: number): Json {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const args: Json = {};
  for (const name of required) {
    if (typeof name === "string") args[name] = plainValue(properties[name], depth);
  }
  return args;
}

/** The arguments of the unpaid call: the required properties' plainest values. */
export function unpaidCallArguments(inputSchema: unknown): Json {
  return isRecord(inputSchema) ? requiredArguments(inputSchema, 0) : {};
}
