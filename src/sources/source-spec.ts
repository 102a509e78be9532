import { z } from "zod";
import type { SourceKind } from "../generated/prisma/enums";

/** A source to crawl: what kind of site it is and where it starts. */
export interface SourceSpec {
  kind: SourceKind;
  url: string;
}

/** The public discovery feed of the CDP facilitator: key-free, so `npm start` has data with no set-up. */
export const DEFAULT_BAZAAR_FEED_URL = "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources";

const KINDS = ["html_directory", "bazaar"] as const satisfies readonly SourceKind[];

const EXAMPLE = `[{"kind":"bazaar","url":"https://…/discovery/resources"},{"kind":"html_directory","url":"https://…"}]`;

const SourceSpecSchema = z.strictObject({
  kind: z.enum(KINDS, { error: 'kind must be "html_directory" or "bazaar"' }),
  url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }),
});

/**
 * Reads the SOURCES setting: the word `none` (crawl nothing on a schedule) or a JSON array of
 * {kind, url}. Every problem is named with the item it is in, so a typo is found at once.
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
    const parsed = SourceSpecSchema.safeParse(item);
    if (parsed.success) sources.push(parsed.data);
    else problems.push(...parsed.error.issues.map((issue) => `item ${index}: ${describeIssue(issue)}`));
  });
  return problems.length > 0 ? { error: problems.join("; ") } : { sources };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys")
    return `unknown key(s) ${issue.keys.join(", ")} (allowed: kind, url)`;
  if (issue.code === "invalid_type" && issue.path.length === 0) return "must be an object {kind, url}";
  if (issue.code === "invalid_type") return `${issue.path.join(".")} is missing`;
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
export function kindForUrl(url: string): SourceKind {
  return /\/discovery\/resources\/?$/.test(new URL(url).pathname) ? "bazaar" : "html_directory";
}
