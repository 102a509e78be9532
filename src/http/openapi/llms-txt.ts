import { MCP_TOOLS } from "../../mcp/server";
import { openApiDocument } from "./document";

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

interface Operation {
  summary?: string;
  description?: string;
  parameters?: unknown[];
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const isParameter = (value: unknown): value is Parameter =>
  typeof value === "object" && value !== null && "name" in value && "in" in value;

function operations(): { method: string; path: string; operation: Operation }[] {
  const paths = (openApiDocument().paths ?? {}) as Record<string, Partial<Record<string, Operation>>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method: method.toUpperCase(), path, operation }] : [];
    }),
  );
}

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
  "The same is available as MCP tools at `POST /mcp` (Streamable HTTP).",
].join("\n");

/** The digest; `full` adds every operation's description and parameters. */
export function renderLlmsTxt(full: boolean): string {
  const document = openApiDocument();
  const lines = [
    `# ${document.info.title}`,
    "",
    `> ${document.info.description ?? ""}`,
    "",
    INTRO,
    "",
    "## API",
    "",
  ];
  for (const { method, path, operation } of operations()) {
    lines.push(`- [${method} ${path}](/openapi.json): ${operation.summary ?? ""}`);
    if (!full) continue;
    if (operation.description) lines.push(`  ${operation.description}`);
    for (const parameter of (operation.parameters ?? []).filter(isParameter))
      lines.push(parameterLine(parameter));
  }
  lines.push("", "## MCP tools (POST /mcp)", "");
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
