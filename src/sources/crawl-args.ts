import { parseArgs } from "node:util";
import type { Config } from "../config/config";
import { configuredSources } from "./configured-sources";
import { kindForUrl, type SourceSpec } from "./source-spec";

export const CRAWL_USAGE = `usage: npm run crawl -- [--kind bazaar|html_directory] [URL]
       npm run crawl -- --kind origin_manifest [ORIGIN]
       npm run crawl -- --help
  URL      a directory listing page or a discovery feed; without it, the configured sources
           (SOURCES, else DIRECTORY_URL, else the public CDP Bazaar feed) are crawled one after another
  --kind   what URL is; default: bazaar when its path ends in /discovery/resources, else html_directory.
           origin_manifest reads /.well-known/x402 of every origin in the catalogue, the origins
           configured for it in SOURCES, and ORIGIN when given (this run only)`;

/** `--help`/`-h` anywhere: print the usage and exit 0, before the configuration is even read. */
export function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

const KINDS = new Set<string>(["bazaar", "html_directory", "origin_manifest"]);

/** What `npm run crawl` should crawl, from its arguments and the configuration. */
export function parseCrawlArgs(
  argv: string[],
  config: Pick<Config, "SOURCES" | "DIRECTORY_URL">,
): { sources: SourceSpec[] } | { error: string } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) return { error: `one URL at most, got ${positionals.length}` };
  const kind = values.kind;
  if (kind !== undefined && !KINDS.has(kind))
    return { error: `--kind must be bazaar, html_directory or origin_manifest, not ${kind}` };
  const url = positionals[0];
  if (url !== undefined && (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)))
    return { error: `not an http(s) URL: ${url}` };
  if (kind === "origin_manifest") return { sources: [manifestSource(config, url)] };
  if (url === undefined) {
    if (kind !== undefined) return { error: "--kind needs a URL" };
    const sources = configuredSources(config);
    return sources.length > 0 ? { sources } : { error: "SOURCES=none and no URL given: nothing to crawl" };
  }
  return {
    sources: [{ kind: kind === "bazaar" || kind === "html_directory" ? kind : kindForUrl(url), url }],
  };
}

/** The configured manifest source (or one with no origins of its own), plus the origin given. */
function manifestSource(
  config: Pick<Config, "SOURCES" | "DIRECTORY_URL">,
  url: string | undefined,
): SourceSpec {
  const configured = configuredSources(config).find((source) => source.kind === "origin_manifest");
  const origins = configured?.origins ?? [];
  const extra = url === undefined ? [] : [new URL(url).origin];
  return { kind: "origin_manifest", origins: [...new Set([...origins, ...extra])] };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: { kind: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
}
