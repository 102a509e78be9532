import type { openApiDocument } from "./document";

type Document = ReturnType<typeof openApiDocument>;
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** A short human reading of a parameter's JSON Schema: type, allowed values, bounds, default. */
function schemaSummary(schema: { [key: string]: Json } | undefined): string {
  if (!schema) return "";
  const parts: string[] = [];
  const type = schema.type ?? (Array.isArray(schema.anyOf) ? "string" : "");
  if (type === "array" && typeof schema.items === "object" && schema.items && !Array.isArray(schema.items)) {
    parts.push(`repeatable ${String(schema.items.type ?? "")}`);
  } else if (type) parts.push(String(type));
  if (typeof schema.format === "string") parts.push(schema.format);
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(", ")}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${schema.minimum ?? "…"} to ${schema.maximum ?? "…"}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

/** Who may call an operation, from its security requirements (accounts-operations.ts). */
function accessNote(security: Array<Record<string, string[]>> | undefined): string {
  const keyed = security?.find((requirement) => Object.keys(requirement).length > 0);
  const scopes = keyed ? Object.values(keyed).flat() : [];
  const scope = scopes.length > 0 ? ` with the scope ${scopes.join(", ")}` : "";
  if (!keyed) return "";
  return security?.some((requirement) => Object.keys(requirement).length === 0)
    ? `Public; a key sent must be valid${scope}.`
    : `Needs an API key${scope}.`;
}

/**
 * GET /docs: the OpenAPI document rendered as one self-contained page (no script, no CDN: the
 * machines it runs on may be offline). /openapi.json stays the source for tools.
 */
export function renderDocsPage(document: Document): string {
  const sections: string[] = [];
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (["get", "post", "delete"] as const).flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
  for (const { path, method, operation } of operations) {
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
    sections.push(`<section>
<h2><span class="verb">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p><b>${escapeHtml(operation.summary ?? "")}</b>${operation.description ? ` ${escapeHtml(operation.description)}` : ""}</p>
<p>${escapeHtml(accessNote(operation.security))}</p>
${rows.length > 0 ? `<table><tr><th>Parameter</th><th>In</th><th>Schema</th><th>Meaning</th></tr>${rows.join("")}</table>` : ""}
<ul>${responses}</ul>
</section>`);
  }
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
${sections.join("\n")}
</body></html>`;
}
