import type { Config } from "../config/config";
import { DEFAULT_BAZAAR_FEED_URL, type SourceSpec } from "./source-spec";

/**
 * The sources `npm start` crawls: SOURCES when set (`none` → no crawl at all), else DIRECTORY_URL
 * as one HTML directory (the setting that predates SOURCES keeps working), else the public CDP
 * Bazaar feed and then the manifest (/.well-known/x402) of every origin it catalogued, so a new
 * user with internet gets a real catalogue with no set-up.
 */
export function configuredSources(config: Pick<Config, "SOURCES" | "DIRECTORY_URL">): SourceSpec[] {
  if (config.SOURCES !== undefined) return config.SOURCES;
  if (config.DIRECTORY_URL) return [{ kind: "html_directory", url: config.DIRECTORY_URL }];
  return [
    { kind: "bazaar", url: DEFAULT_BAZAAR_FEED_URL },
    { kind: "origin_manifest", origins: [] },
  ];
}
