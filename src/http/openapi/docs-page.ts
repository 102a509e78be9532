import {
  accessNote,
  asSchema,
  type Document,
  exampleBody,
  type Json,
  type JsonSchema,
  operationsOf,
  requestBodySchema,
} from "./operation-parts";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * A short human reading of a JSON Schema: type, allowed values, bounds, default. A query
 * parameter's array is "repeatable"; a field's is a "list of".
 */
function schemaSummary(schema: { [key: string]: Json } | undefined, arrayWord = "repeatable"): string {
  if (!schema) return "";
  const parts: string[] = [];
  const type = schema.type ?? (Array.isArray(schema.anyOf) ? "string" : "");
  if (type === "array" && typeof schema.items === "object" && schema.items && !Array.isArray(schema.items)) {
    parts.push(`${arrayWord} ${String(schema.items.type ?? "")}`);
  } else if (type) parts.push(String(type));
  if (typeof schema.format === "string") parts.push(schema.format);
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(", ")}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${schema.minimum ?? "…"} to ${schema.maximum ?? "…"}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

/** A property's own schema without its `null` branch, and whether it may be null. */
function unwrapNullable(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf.map(asSchema) : [];
  const other = branches.filter((branch) => branch && branch.type !== "null");
  if (branches.length === 2 && other.length === 1 && other[0])
    return {
      schema: { ...other[0], ...(schema.description ? { description: schema.description } : {}) },
      nullable: true,
    };
  return { schema, nullable: false };
}

function typeText(schema: JsonSchema, nullable: boolean): string {
  const ref = typeof schema.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
  const items = asSchema(schema.items);
  const itemRef = typeof items?.$ref === "string" ? items.$ref.split("/").pop() : undefined;
  const base = ref
    ? `<a href="#schema-${ref}">${ref}</a>`
    : itemRef
      ? `list of <a href="#schema-${itemRef}">${itemRef}</a>`
      : escapeHtml(schemaSummary(schema, "list of"));
  return nullable ? `${base}, or null` : base;
}

/** One row per field, nested objects flattened to dotted names (probe.windows.24h.p50_ms). */
function fieldRows(schema: JsonSchema, prefix: string, rows: string[]): string[] {
  for (const [name, raw] of Object.entries(asSchema(schema.properties) ?? {})) {
    const property = asSchema(raw);
    if (!property) continue;
    const { schema: field, nullable } = unwrapNullable(property);
    const path = `${prefix}${name}`;
    const description = typeof field.description === "string" ? field.description : "";
    rows.push(
      `<tr><td><code>${escapeHtml(path)}</code></td><td>${typeText(field, nullable)}</td><td>${escapeHtml(description)}</td></tr>`,
    );
    if (field.properties) fieldRows(field, `${path}.`, rows);
    const items = asSchema(field.items);
    if (items?.properties) fieldRows(items, `${path}[].`, rows);
  }
  return rows;
}

/** The answers' schemas with every field and what it means, so a reader need not guess. */
function schemaSections(document: Document): string[] {
  const schemas = (document.components?.schemas ?? {}) as { [name: string]: Json };
  return Object.entries(schemas).map(([name, raw]) => {
    const schema = asSchema(raw) ?? {};
    const rows = fieldRows(schema, "", []);
    return `<section id="schema-${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
${typeof schema.description === "string" ? `<p>${escapeHtml(schema.description)}</p>` : ""}
${rows.length > 0 ? `<table><tr><th>Field</th><th>Type</th><th>Meaning</th></tr>${rows.join("")}</table>` : ""}
</section>`;
  });
}

/** An operation's request body: its fields with their meaning and an example to send. */
function bodySection(document: Document, entry: Parameters<typeof exampleBody>[1]): string {
  const schema = requestBodySchema(document, entry);
  if (!schema) return "";
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const rows = fieldRows(schema, "", []).map((row) => {
    const name = /<code>([^<]*)<\/code>/.exec(row)?.[1] ?? "";
    return required.has(name) ? row.replace("</code></td>", "</code> (required)</td>") : row;
  });
  return `<h3>Request body (JSON)</h3>
${typeof schema.description === "string" ? `<p>${escapeHtml(schema.description)}</p>` : ""}
<table><tr><th>Field</th><th>Type</th><th>Meaning</th></tr>${rows.join("")}</table>
<pre><code>${escapeHtml(exampleBody(document, entry) ?? "")}</code></pre>`;
}

const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "-");

/**
 * GET /docs: the OpenAPI document rendered as one self-contained page (no script, no CDN: the
 * machines it runs on may be offline), with a table of contents first. /openapi.json stays the
 * source for tools.
 */
export function renderDocsPage(document: Document): string {
  const sections: string[] = [];
  const contents: string[] = [];
  for (const entry of operationsOf(document)) {
    const { path, method, operation } = entry;
    const id = `op-${anchor(operation.operationId ?? `${method}-${path}`)}`;
    contents.push(
      `<li><a href="#${id}"><span class="verb">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></a> ${escapeHtml(operation.summary ?? "")}</li>`,
    );
    const rows = (operation.parameters ?? []).map((parameter) => {
      if (!("name" in parameter)) return "";
      const schema = parameter.schema as { [key: string]: Json } | undefined;
      return `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${parameter.in}${parameter.required ? ", required" : ""}</td><td>${escapeHtml(schemaSummary(schema))}</td><td>${escapeHtml(parameter.description ?? "")}</td></tr>`;
    });
    const responses = Object.entries(operation.responses ?? {})
      .map(
        ([code, response]) =>
          `<li><b>${code}</b> ${escapeHtml((response as { description?: string }).description ?? "")}</li>`,
      )
      .join("");
    sections.push(`<section id="${id}">
<h2><span class="verb">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p><b>${escapeHtml(operation.summary ?? "")}</b>${operation.description ? ` ${escapeHtml(operation.description)}` : ""}</p>
<p>${escapeHtml(accessNote(operation.security))}</p>
${rows.length > 0 ? `<table><tr><th>Parameter</th><th>In</th><th>Schema</th><th>Meaning</th></tr>${rows.join("")}</table>` : ""}
${bodySection(document, entry)}
<ul>${responses}</ul>
</section>`);
  }
  const schemaNames = Object.keys(document.components?.schemas ?? {});
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
code{font:13px ui-monospace,monospace}table{border-collapse:collapse;width:100%;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f5f5f5}
.verb{background:#0a6;color:#fff;border-radius:3px;padding:0 .4rem;font-size:13px}section{margin-bottom:2rem}
</style></head><body>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${escapeHtml(document.info.description ?? "")}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
<nav id="contents"><h2>Contents</h2>
<h3>Operations</h3><ul>${contents.join("")}</ul>
<h3>Answers</h3><ul>${schemaNames.map((name) => `<li><a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a></li>`).join("")}</ul>
</nav>
${sections.join("\n")}
<h1>Answers</h1>
${schemaSections(document).join("\n")}
</body></html>`;
}
