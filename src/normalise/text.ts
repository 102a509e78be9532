import { invalid, missing, ok } from "./parsed";
import type { Parsed } from "./types";

/**
 * Characters that take no room on screen (zero-width space/joiners, word joiner, BOM, soft hyphen).
 * They are removed rather than turned into spaces: a page uses them as line-break hints inside a
 * word, and keeping them would make "api.example.com" differ from what a reader sees.
 */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/**
 * C0 control characters other than tab, line feed and carriage return: a directory's text never
 * means them, and Postgres stores no NUL in text. They are removed wherever crawled text is read.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** Crawled text without control characters (tabs and line breaks kept). */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, "");
}

/** JS `\s` covers the Unicode space separators (incl. U+00A0, U+202F) and line breaks; U+0085 is not in it. */
const WHITESPACE_RUN = /[\s\u0085]+/g;

/**
 * All runs of whitespace (any Unicode space, tabs, newlines) become one ASCII space, control
 * characters go, ends trimmed.
 * Returns null when nothing visible is left, so callers never store "".
 */
export function collapseWhitespace(text: string | null | undefined): string | null {
  if (text == null) return null;
  const collapsed = withoutControls(text.replace(INVISIBLE, "").replace(WHITESPACE_RUN, " ")).trim();
  return collapsed === "" ? null : collapsed;
}

/** Placeholders directories print instead of a value. Compared lower-case after collapsing. */
const MISSING_WORDS = new Set(["n/a", "n.a.", "na", "none", "null", "unknown"]);

/** Only dashes ("-", "--", "—", "–", "−", …) or only question marks: the usual "no data" glyphs. */
const MISSING_GLYPHS = /^(?:[-\u2010-\u2015\u2212]+|\?+)$/;

/**
 * True when the visible text means "no value". Such a value is missing, never 0: an uptime of "—"
 * must not become 0 % in the catalogue.
 */
export function isMissing(text: string | null | undefined): boolean {
  const collapsed = collapseWhitespace(text);
  if (collapsed === null) return true;
  return MISSING_GLYPHS.test(collapsed) || MISSING_WORDS.has(collapsed.toLowerCase());
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

function isHttpMethod(text: string): text is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(text);
}

/** "get" / " POST " → the canonical upper-case method; anything else (e.g. "FETCH", "GET/POST") is invalid. */
export function normaliseMethod(text: string | null | undefined): Parsed<HttpMethod> {
  if (text == null || isMissing(text)) return missing();
  const upper = (collapseWhitespace(text) ?? "").toUpperCase();
  return isHttpMethod(upper)
    ? ok(upper)
    : invalid(text, `not an HTTP method (expected one of ${HTTP_METHODS.join(", ")})`);
}

/**
 * Resolves a link as a browser would, then keeps only http(s): a catalogue entry pointing to
 * "javascript:" or "mailto:" is useless and possibly hostile. The fragment is dropped because it
 * never reaches the server, so "/a#x" and "/a" are the same endpoint.
 */
export function absoluteUrl(href: string | null | undefined, baseUrl: string): Parsed<string> {
  if (href == null || isMissing(href)) return missing();
  let url: URL;
  try {
    // The URL parser itself strips tabs/newlines and trims, as browsers do for href attributes.
    url = new URL(href, baseUrl);
  } catch {
    return invalid(href, `not a valid URL (relative to ${baseUrl})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return invalid(href, `scheme "${url.protocol}" is not http or https`);
  }
  url.hash = "";
  return ok(url.href);
}

/** A category label, whitespace collapsed; placeholders like "—" or "N/A" mean no category. */
export function normaliseCategory(text: string | null | undefined): string | null {
  return isMissing(text) ? null : collapseWhitespace(text);
}

/** Separators directories use when several tags are printed as one string. */
const TAG_SEPARATORS = /[,|;]/;

/**
 * Tags as the catalogue stores them: one per entry, "#" prefixes removed, lower-case, whitespace
 * collapsed, duplicates removed keeping the first occurrence (page order is meaningful), and
 * empty or placeholder entries dropped.
 */
export function normaliseTags(list: readonly (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const entry of list) {
    for (const piece of (entry ?? "").split(TAG_SEPARATORS)) {
      const tag = normaliseTag(piece);
      if (tag !== null) seen.add(tag);
    }
  }
  return [...seen];
}

function normaliseTag(piece: string): string | null {
  const collapsed = collapseWhitespace(piece);
  if (collapsed === null) return null;
  // "# ai" is the same tag as "#ai"; several "#" (e.g. "##ai") are still just a prefix.
  const withoutHash = collapseWhitespace(collapsed.replace(/^#+/, ""));
  if (withoutHash === null || isMissing(withoutHash)) return null;
  return withoutHash.toLowerCase();
}

/** Text that already names its scheme ("https://…", "ftp://…"); anything else is a bare host. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * "API.Example.com", "https://api.example.com/v1", "example.com:8443" → "api.example.com" /
 * "example.com": the lower-case host name, no scheme, port, path or trailing dot. International
 * names come back in their ASCII (punycode) form, as the URL standard canonicalises them.
 */
export function parseDomain(text: string | null | undefined): Parsed<string> {
  if (text == null || isMissing(text)) return missing();
  const collapsed = collapseWhitespace(text) ?? "";
  // A space or "@" means a sentence or an e-mail address, not a host; the URL parser would accept both.
  if (/[\s@]/.test(collapsed)) return invalid(text, "not a domain name");
  let url: URL;
  try {
    url = new URL(HAS_SCHEME.test(collapsed) ? collapsed : `https://${collapsed}`);
  } catch {
    return invalid(text, "not a domain name");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return invalid(text, "not an http(s) address");
  const host = url.hostname.replace(/\.$/, "");
  // A single label ("localhost", "intranet") is not a public service's domain.
  if (!host.includes(".") && !host.startsWith("[")) return invalid(text, "not a fully qualified domain name");
  return ok(host);
}
