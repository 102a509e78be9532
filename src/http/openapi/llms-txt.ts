import { MCP_TOOLS } from "../../mcp/server";
import { openApiDocument } from "./document";
import { accessNote, exampleBody, operationsOf } from "./operation-parts";

/**
 * /llms.txt and /llms-full.txt (the llms.txt convention: a markdown digest for language models)
 * rendered from the OpenAPI document and the MCP tool list, the same sources the API and the MCP
 * server are built from, so the digest cannot drift from them.
 */

interface Parameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
  schema?: { enum?: unknown[]; default?: unknown };
}

const isParameter = (value: unknown): value is Parameter =>
  typeof value === "object" && value !== null && "name" in value && "in" in value;

function parameterLine(p: Parameter): string {
  const notes = [
    p.in === "path" ? "path" : null,
    p.required ? "required" : null,
    p.schema?.enum ? `one of ${p.schema.enum.join(", ")}` : null,
    p.schema?.default !== undefined ? `default ${String(p.schema.default)}` : null,
  ].filter((note) => note !== null);
  const detail = notes.length === 0 ? "" : ` (${notes.join("; ")})`;
  return `  - \`${p.name}\`${detail}: ${p.description ?? ""}`.trimEnd();
}

const INTRO = [
  'Agents: search with `GET /v1/services?q=…` (services) or `GET /v1/endpoints?q=…` ("an endpoint that does X"),',
  "narrow with filters (price in USDC as a decimal string, network as CAIP-2, `payable=true` for endpoints a",
  "standard x402 client can pay as published), then read `GET /v1/services/{id}` for each endpoint's payment",
  "options, payability verdict with reasons, how to call it (`call`) and our own probe results.",
  "Where a chain is read, `observed` (service and endpoint detail) says what its pay_tos were really paid on chain:",
  "`raw` and `adjusted` (self-dealing left out) volume, transfers and payers over 24 h, 7 d and 30 d, `flags`",
  "(self_payment, round_trip, funded_by_pay_to, concentration) with the transactions behind each, and the",
  "directory's and feed's `claims` beside them (`claims_exceed_observed` past twice the adjusted figure).",
  "The same is available as MCP tools at `POST /mcp` (Streamable HTTP).",
].join("\n");

const AUTHENTICATION = [
  "## Authentication",
  "",
  "The catalogue (searches, details, history, categories, tags, crawls, MCP) answers without a key:",
  "anonymous callers are rate-limited per client address, and every answer carries `RateLimit-Limit`,",
  "`RateLimit-Remaining` and `RateLimit-Reset`; over the limit the answer is 429 with `Retry-After`.",
  "What an organisation owns (API keys, usage, payment orders, subscriptions, webhook endpoints) needs an",
  "API key, sent as a header: `Authorization: Bearer xcat_live_…` (or `xcat_test_…` for the test",
  "environment). A key is limited by its organisation's plan. A missing key on such a route is 401, an",
  "unknown or revoked key 401, a key without the route's scope 403; a key sent to a public route is",
  "checked the same way. Request bodies are JSON: send `Content-Type: application/json`.",
].join("\n");

/**
 * The digest; `full` adds every operation's description and parameters. `document` is the API's
 * own OpenAPI document (with its paid operations marked when the API is sold); `extra` sections
 * follow the API list (how to pay).
 */
export function renderLlmsTxt(
  full: boolean,
  document = openApiDocument(),
  extra: readonly string[] = [],
): string {
  const lines = [
    `# ${document.info.title}`,
    "",
    `> ${document.info.description ?? ""}`,
    "",
    INTRO,
    "",
    AUTHENTICATION,
    "",
    "## API",
    "",
  ];
  for (const entry of operationsOf(document)) {
    const { method, path, operation } = entry;
    const body = exampleBody(document, entry);
    lines.push(
      `- [${method.toUpperCase()} ${path}](/openapi.json): ${operation.summary ?? ""}. ${accessNote(operation.security)}`,
    );
    if (full) {
      if (operation.description) lines.push(`  ${operation.description}`);
      const parameters: unknown[] = operation.parameters ?? [];
      for (const parameter of parameters.filter(isParameter)) lines.push(parameterLine(parameter));
    }
    if (body) lines.push(`  Body (JSON), e.g. \`${body}\``);
  }
  lines.push("", ...extra, "## MCP tools (POST /mcp)", "");
  for (const [name, tool] of Object.entries(MCP_TOOLS)) {
    lines.push(`- \`${name}\`: ${full ? tool.description : tool.title}`);
  }
  lines.push(
    "",
    "## Optional",
    "",
    "- [OpenAPI 3.1 document](/openapi.json): every parameter and answer schema",
    "- [API reference for people](/docs)",
    ...(full
      ? []
      : ["- [Full digest](/llms-full.txt): every operation's parameters and the MCP tools' purposes"]),
    "",
  );
  return lines.join("\n");
}
