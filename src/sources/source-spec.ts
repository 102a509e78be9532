import { z } from "zod";
import type { SourceKind } from "../generated/prisma/enums";

/**
 * A source to crawl: a site or feed at a URL, or the origin manifests (`/.well-known/x402`) of
 * every origin in the catalogue plus the `origins` given here.
 */
export type SourceSpec =
  | { kind: "html_directory" | "bazaar"; url: string }
  | { kind: "origin_manifest"; origins: string[] };

/** The public discovery feed of the CDP facilitator: key-free, so `npm start` has data with no set-up. */
export const DEFAULT_BAZAAR_FEED_URL = "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources";

const KINDS = ["html_directory", "bazaar", "origin_manifest"] as const satisfies readonly SourceKind[];

const EXAMPLE = `[{"kind":"bazaar","url":"https://…/discovery/resources"},{"kind":"html_directory","url":"https://…"},{"kind":"origin_manifest"}]`;

const HTTP_URL = { protocol: /^https?$/ };

const KindSchema = z.looseObject({
  kind: z.enum(KINDS, { error: 'kind must be "html_directory", "bazaar" or "origin_manifest"' }),
});

const UrlSourceSchema = z.strictObject({
  kind: z.enum(["html_directory", "bazaar"]),
  url: z.url({ ...HTTP_URL, error: "url must be an http(s) URL" }),
});

/** Origins only: a path given with one is dropped, since the manifest lives at the origin's root. */
const ManifestSourceSchema = z.strictObject({
  kind: z.literal("origin_manifest"),
  origins: z
    .array(z.url({ ...HTTP_URL, error: "origins must be http(s) URLs" }), {
      error: "origins must be a list of http(s) URLs",
    })
    .default([])
    .transform((urls) => [...new Set(urls.map((url) => new URL(url).origin))]),
});

const ALLOWED_KEYS = { origin_manifest: "kind, origins", html_directory: "kind, url", bazaar: "kind, url" };

/** One item of the list; the kind is read first so that each kind's own fields can be named. */
function parseSpec(item: unknown): { spec: SourceSpec } | { problems: string[] } {
  const kind = KindSchema.safeParse(item);
  if (!kind.success)
    return { problems: kind.error.issues.map((issue) => describeIssue(issue, "kind, url", item)) };
  const allowed = ALLOWED_KEYS[kind.data.kind];
  const parsed =
    kind.data.kind === "origin_manifest"
      ? ManifestSourceSchema.safeParse(item)
      : UrlSourceSchema.safeParse(item);
  return parsed.success
    ? { spec: parsed.data }
    : { problems: parsed.error.issues.map((issue) => describeIssue(issue, allowed, item)) };
}

/**
 * Reads the SOURCES setting: the word `none` (crawl nothing on a schedule) or a JSON array of
 * {kind, url} (or {kind: "origin_manifest", origins?}). Every problem is named with the item it
 * is in, so a typo is found at once.
 */
export function parseSourcesSetting(text: string): { sources: SourceSpec[] } | { error: string } {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === "none") return { sources: [] };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { error: `must be "none" or a JSON array such as ${EXAMPLE} (not valid JSON: ${why})` };
  }
  if (!Array.isArray(json)) return { error: `must be "none" or a JSON array such as ${EXAMPLE}` };
  const sources: SourceSpec[] = [];
  const problems: string[] = [];
  json.forEach((item, index) => {
    const parsed = parseSpec(item);
    if ("problems" in parsed) problems.push(...parsed.problems.map((problem) => `item ${index}: ${problem}`));
    else if (parsed.spec.kind === "origin_manifest" && sources.some((s) => s.kind === "origin_manifest"))
      problems.push(`item ${index}: only one origin_manifest source (list extra origins in its origins)`);
    else sources.push(parsed.spec);
  });
  return problems.length > 0 ? { error: problems.join("; ") } : { sources };
}

function describeIssue(issue: z.core.$ZodIssue, allowed: string, item: unknown): string {
  if (issue.code === "unrecognized_keys")
    return `unknown key(s) ${issue.keys.join(", ")} (allowed: ${allowed})`;
  if (issue.code === "invalid_type" && issue.path.length === 0) return "must be an object {kind, url}";
  const given = (item as Record<PropertyKey, unknown>)[issue.path[0] ?? ""];
  if (issue.code === "invalid_type" && given === undefined) return `${issue.path.join(".")} is missing`;
  return issue.message;
}

/** The zod schema of the SOURCES setting (config.ts): a string in, a list of sources out. */
export const sourcesSettingSchema = z.string().transform((text, ctx) => {
  const result = parseSourcesSetting(text);
  if ("error" in result) {
    ctx.addIssue({ code: "custom", message: result.error });
    return z.NEVER;
  }
  return result.sources;
});

/**
 * The kind of a URL given on the command line without --kind: discovery feeds are served under
 * `/discovery/resources` (the x402 Bazaar convention); anything else is taken as an HTML directory.
 */
export function kindForUrl(url: string): "bazaar" | "html_directory" {
  return /\/discovery\/resources\/?$/.test(new URL(url).pathname) ? "bazaar" : "html_directory";
}
