import { z } from "zod";

const jsonObject = z.record(z.string(), z.unknown());

/** How to call an endpoint, as published (src/payments/call-description.ts). */
export const callSchema = z
  .strictObject({
    source: z.enum(["live_challenge", "listing"]).meta({
      description:
        "The endpoint's own 402 challenge or, for an MCP tool, the server's tools/list (our latest probe), " +
        "else what its listing source publishes.",
    }),
    format: z.enum(["bazaar_extension", "v1_output_schema", "metadata", "mcp_tool"]).meta({
      description:
        "Where it was read: x402 v2's extensions.bazaar, v1's accepts[].outputSchema, a feed item's metadata, " +
        "or (an MCP tool) the server's tools/list: input {type: mcp, tool, inputSchema}, output {schema}.",
    }),
    input: jsonObject.nullable().meta({
      description: "As published, e.g. {type, method, queryParams, bodyType, body, headers, pathParams}.",
    }),
    output: jsonObject
      .nullable()
      .meta({ description: "As published, e.g. {type, format, example, schema}." }),
    input_schema: jsonObject
      .nullable()
      .meta({ description: "The bazaar extension's JSON Schema of its info." }),
    route_template: z
      .string()
      .nullable()
      .meta({ description: 'The route the URL was made from, e.g. "/weather/:city".' }),
  })
  .nullable()
  .meta({
    id: "CallDescription",
    description: "How to call the endpoint before paying; null when nobody publishes it.",
  });
